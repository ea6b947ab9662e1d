import { Button, Dialog, DialogBody, DialogFooter, FormGroup, NonIdealState } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { type Envelope, http } from '../../api/client';
import { usePermissions } from '../../app/permissions';
import { CheckTree } from '../../crud/CheckTree';
import { treeOf } from '../../crud/api';
import { CrudPage, type ToolbarContext } from '../../crud/CrudPage';
import type { TreeOption } from '../../crud/types';
import { TreeSelect } from '../../crud/widgets';
import { toastSuccess } from '../../ui/toast';
import { PROJECT_SELECT, rowsAsOptions, userProjectView, X } from './projectViews';

const users = () => rowsAsOptions('api/blade-user/list', (u) => `${String(u.realName || u.name || u.account)} (${String(u.account)})`);

/** 分配项目: pick a user, check the projects they see (none: every project), setUserProject. */
function AssignDialog({ onClose, onSaved }: { onClose(): void; onSaved(): void }) {
  const { t } = useLingui();
  const [userId, setUserId] = useState<string>();
  const [projects, setProjects] = useState<TreeOption[]>([]);
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    void treeOf(PROJECT_SELECT).then(setProjects, () => setProjects([]));
  }, []);
  useEffect(() => {
    if (!userId) return;
    void http
      .get<Envelope<{ projectIds: string[] }>>(`${X}/userproject/selectUserProject`, { searchParams: { userId } })
      .then((r) => setChecked(new Set(r.data.projectIds.map(String))), () => setChecked(new Set()));
  }, [userId]);
  async function save() {
    if (!userId) return;
    setBusy(true);
    try {
      await http.post(`${X}/userproject/setUserProject`, { json: { userId, projectIds: [...checked].join(',') } });
      toastSuccess(t`操作成功!`);
      onSaved();
    } catch {
      setBusy(false);
    }
  }
  return (
    <Dialog isOpen title={t`分配项目`} onClose={onClose} style={{ width: 560 }} className="vg-user-project-assign" canOutsideClickClose={false}>
      <DialogBody>
        <FormGroup label={t`用户`} labelFor="assign-user" labelInfo="*">
          <TreeSelect id="assign-user" source={users} value={userId} onChange={(id) => setUserId(String(id))} />
        </FormGroup>
        <FormGroup label={t`项目`} helperText={t`不勾选任何项目时,该用户可查看全部项目`}>
          {projects.length ? <CheckTree nodes={projects} checked={checked} onChange={setChecked} /> : <NonIdealState description={t`暂无数据`} />}
        </FormGroup>
      </DialogBody>
      <DialogFooter actions={<><Button text={t`取消`} onClick={onClose} /><Button intent="primary" text={t`保存`} loading={busy} disabled={!userId} className="vg-assign-save" onClick={() => void save()} /></>} />
    </Dialog>
  );
}

/** /xinde/userproject: the assignments, and the dialog that sets one user's projects. */
export default function UserProjectPage() {
  const { t } = useLingui();
  const permissions = usePermissions();
  const [assigning, setAssigning] = useState<() => void>();
  const toolbar = ({ refresh }: ToolbarContext) =>
    permissions.user_project_add === true && <Button intent="primary" icon="people" text={t`分配项目`} className="vg-user-project-assign-open" onClick={() => setAssigning(() => refresh)} />;
  return (
    <>
      <CrudPage view={userProjectView} toolbar={toolbar} />
      {assigning && <AssignDialog onClose={() => setAssigning(undefined)} onSaved={() => { setAssigning(undefined); assigning(); }} />}
    </>
  );
}
