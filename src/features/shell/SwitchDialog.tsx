import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import { waitFor } from 'xstate';
import { deptOptions, type Option, roleOptions } from '../../api/system';
import { sessionActor } from '../../app/shell';

/** Switch dept/role (switch mode only): refreshes the token for the chosen pair, then reloads the console. */
export function SwitchDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useLingui();
  const user = useSelector(sessionActor, (s) => s.context.user);
  const [depts, setDepts] = useState<Option[]>([]);
  const [roles, setRoles] = useState<Option[]>([]);
  const [choice, setChoice] = useState({ deptId: user?.deptId ?? '', roleId: user?.roleId ?? '' });
  const [error, setError] = useState<{ dept?: string; role?: string }>({});

  useEffect(() => {
    if (!isOpen || !user) return;
    void deptOptions(user.userId).then(setDepts, () => setDepts([]));
    void roleOptions(user.userId).then(setRoles, () => setRoles([]));
  }, [isOpen, user]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problems = { dept: choice.deptId ? undefined : t`请选择部门`, role: choice.roleId ? undefined : t`请选择角色` };
    setError(problems);
    if (problems.dept || problems.role) return;
    sessionActor.send({ type: 'session.refresh', choice });
    await waitFor(sessionActor, (s) => !s.matches({ loggedIn: 'refreshing' }));
    onClose();
    window.location.reload();
  }

  const options = (rows: Option[], label: (o: Option) => string | undefined) => [
    { value: '', label: '' },
    ...rows.map((o) => ({ value: String(o.id), label: label(o) ?? String(o.id) })),
  ];
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t`切换部门/角色`} style={{ width: 420 }}>
      <form onSubmit={(e) => void submit(e)}>
        <DialogBody>
          <FormGroup label={t`部门`} helperText={error.dept} intent={error.dept ? 'danger' : 'none'}>
            <HTMLSelect fill value={choice.deptId} options={options(depts, (o) => o.deptName ?? o.title ?? o.name)} onChange={(e) => setChoice((c) => ({ ...c, deptId: e.target.value }))} />
          </FormGroup>
          <FormGroup label={t`角色`} helperText={error.role} intent={error.role ? 'danger' : 'none'}>
            <HTMLSelect fill value={choice.roleId} options={options(roles, (o) => o.roleName ?? o.title ?? o.name)} onChange={(e) => setChoice((c) => ({ ...c, roleId: e.target.value }))} />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={<Button type="submit" intent="primary" text={t`确定`} />} />
      </form>
    </Dialog>
  );
}
