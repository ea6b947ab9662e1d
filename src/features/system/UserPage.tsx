import { Button, Dialog, DialogBody, DialogFooter, FormGroup, NonIdealState, Tree, type TreeNodeInfo } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { user } from '../../../resources/system/user';
import { type Envelope, http } from '../../api/client';
import { usePermissions } from '../../app/permissions';
import { sessionActor } from '../../app/shell';
import { crudCalls, type Row, treeOf } from '../../crud/api';
import { CrudPage, type ToolbarContext } from '../../crud/CrudPage';
import type { TreeOption } from '../../crud/types';
import { FieldInput, TreeSelect } from '../../crud/widgets';
import { confirm } from '../../ui/confirm';
import { toastSuccess, toastWarning } from '../../ui/toast';
import { DEPT_TREE, ROLE_TREE, userView } from './userView';

const PLATFORM_TENANT = '000000';
const ADMINISTRATOR = 'administrator';
const calls = crudCalls(user);

/** Runs an account call; the request layer shows a failure, success is toasted here. */
async function run(call: Promise<unknown>, done: string, after: () => void): Promise<boolean> {
  try {
    await call;
    toastSuccess(done);
    after();
    return true;
  } catch {
    return false;
  }
}

/** The dept tree beside the user list: picking a dept lists its users and those of the depts below it. */
function DeptFilter({ value, onChange }: { value?: string; onChange(deptId?: string): void }) {
  const { t } = useLingui();
  const [nodes, setNodes] = useState<TreeOption[]>([]);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    void treeOf(DEPT_TREE).then((tree) => {
      setNodes(tree);
      setOpen(new Set(tree.map((n) => n.id)));
    }, () => setNodes([]));
  }, []);
  const build = (list: readonly TreeOption[]): TreeNodeInfo<string>[] =>
    list.map((n) => ({
      id: n.id,
      label: n.title,
      className: `vg-dept-node-${n.id}`,
      isSelected: n.id === value,
      isExpanded: open.has(n.id),
      hasCaret: !!n.children?.length,
      childNodes: n.children ? build(n.children) : undefined,
    }));
  const toggle = (id: string, on: boolean) => setOpen((prev) => (on ? new Set(prev).add(id) : new Set([...prev].filter((x) => x !== id))));
  return (
    <div className="vg-dept-filter">
      <Button fill variant="minimal" alignText="start" icon="office" text={t`全部部门`} active={!value} className="vg-dept-all" onClick={() => onChange(undefined)} />
      {nodes.length ? (
        <Tree
          contents={build(nodes)}
          onNodeClick={(n) => onChange(n.id === value ? undefined : String(n.id))}
          onNodeExpand={(n) => toggle(String(n.id), true)}
          onNodeCollapse={(n) => toggle(String(n.id), false)}
        />
      ) : (
        <NonIdealState description={t`暂无数据`} />
      )}
    </div>
  );
}

/** 角色配置: sets the roles of the selected users (their tenant's role tree). */
function GrantDialog({ users, onClose, onSaved }: { users: Row[]; onClose(): void; onSaved(): void }) {
  const { t } = useLingui();
  const [roleIds, setRoleIds] = useState<string[]>(() => String(users.length === 1 ? (users[0].roleId ?? '') : '').split(',').filter(Boolean));
  const [problem, setProblem] = useState('');
  const tenantId = String(users[0].tenantId ?? '');
  const source = useMemo(() => `${ROLE_TREE}?tenantId=${encodeURIComponent(tenantId)}`, [tenantId]);
  async function save() {
    if (roleIds.length === 0) return setProblem(t`请选择角色`);
    const body = { userIds: users.map((u) => u.id).join(','), roleIds: roleIds.join(',') };
    await run(http.post(`${calls.base}/grant`, { json: body }), t`操作成功!`, onSaved);
  }
  return (
    <Dialog isOpen title={t`角色配置`} onClose={onClose} style={{ width: 480 }} className="vg-user-grant">
      <DialogBody>
        <FormGroup label={t`角色`} labelFor="grant-roles" intent={problem ? 'danger' : 'none'} helperText={problem || undefined}>
          <TreeSelect id="grant-roles" source={source} multiple value={roleIds} onChange={(ids) => { setRoleIds([ids].flat()); setProblem(''); }} />
        </FormGroup>
      </DialogBody>
      <DialogFooter actions={<><Button text={t`取消`} onClick={onClose} /><Button intent="primary" text={t`确定`} className="vg-grant-save" onClick={() => void save()} /></>} />
    </Dialog>
  );
}

/** 平台配置: the user's platform (dict user_type) and its free JSON extension. */
function PlatformDialog({ row, onClose }: { row: Row; onClose(): void }) {
  const { t } = useLingui();
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [problem, setProblem] = useState('');
  useEffect(() => {
    void http.get<Envelope<Row>>(`${calls.base}/platform-detail`, { searchParams: { userId: row.id } }).then((r) => setValues({ ...r.data }), () => undefined);
  }, [row.id]);
  async function save() {
    if (!values.userType) return setProblem(t`请选择用户平台`);
    const body = { userId: row.id, userType: Number(values.userType), userExt: String(values.userExt ?? '') };
    await run(http.post(`${calls.base}/update-platform`, { json: body }), t`操作成功!`, onClose);
  }
  return (
    <Dialog isOpen title={t`平台配置`} onClose={onClose} style={{ width: 600 }} className="vg-user-platform">
      <DialogBody>
        <FormGroup label={t`登录账号`}>{String(row.account ?? '')}</FormGroup>
        <FormGroup label={t`用户平台`} labelFor="platform-userType" labelInfo="*" intent={problem ? 'danger' : 'none'} helperText={problem || undefined}>
          <FieldInput id="platform-userType" field={{ name: 'userType', label: msg`用户平台`, widget: { type: 'select', dict: 'user_type' } }} value={values.userType}
            onChange={(v) => { setValues((s) => ({ ...s, userType: v })); setProblem(''); }} onBlur={() => undefined} />
        </FormGroup>
        <FormGroup label={t`用户拓展`} labelFor="platform-userExt" helperText={t`JSON 格式`}>
          <FieldInput id="platform-userExt" field={{ name: 'userExt', label: msg`用户拓展`, widget: { type: 'textarea', rows: 6 } }} value={values.userExt}
            onChange={(v) => setValues((s) => ({ ...s, userExt: v }))} onBlur={() => undefined} />
        </FormGroup>
      </DialogBody>
      <DialogFooter actions={<><Button text={t`取消`} onClick={onClose} /><Button intent="primary" text={t`确定`} className="vg-platform-save" onClick={() => void save()} /></>} />
    </Dialog>
  );
}

/** /system/user (spec §2 "User management"). */
export default function UserPage() {
  const { t } = useLingui();
  const permissions = usePermissions();
  const platformAdmin = useSelector(sessionActor, (s) => s.context.user?.tenantId === PLATFORM_TENANT && (s.context.user.roleName ?? '').split(',').includes(ADMINISTRATOR));
  const [deptId, setDeptId] = useState<string>();
  const [granting, setGranting] = useState<{ users: Row[]; refresh(): void }>();
  const [platformOf, setPlatformOf] = useState<Row>();

  const view = useMemo(
    () =>
      userView({
        platformAdmin,
        approve: (row, refresh) => void run(calls.submit({ id: row.id, status: 1 }), t`操作成功!`, refresh),
        platform: setPlatformOf,
        unlock: (row, refresh) => void ask(t`确定将选择账号解封?`, 'unlock', String(row.id), refresh),
      }),
    [platformAdmin, t],
  );
  const params = useMemo(() => (deptId ? { deptId } : undefined), [deptId]);

  /** A batch action on the selected users, after a question when it changes the accounts. */
  const batch = (selected: Row[], action: (ids: string) => void) => {
    if (selected.length === 0) return toastWarning(t`请选择至少一条数据`);
    action(selected.map((u) => u.id).join(','));
  };
  const ask = async (question: string, path: string, userIds: string, refresh: () => void) => {
    if (await confirm(question)) await run(http.post(`${calls.base}/${path}`, { json: { userIds } }), t`操作成功!`, refresh);
  };
  const can = (code: string) => permissions[`user_${code}`] === true;
  const toolbar = ({ selected, refresh }: ToolbarContext) => (
    <>
      {can('role') && <Button icon="people" text={t`角色配置`} className="vg-user-role" onClick={() => batch(selected, () => setGranting({ users: selected, refresh }))} />}
      {can('reset') && (
        <Button icon="key" text={t`重置密码`} className="vg-user-reset"
          onClick={() => batch(selected, (ids) => void ask(t`确定将选择账号密码重置为初始密码?`, 'reset-password', ids, refresh))} />
      )}
      {can('unlock') && (
        <Button icon="unlock" text={t`账号解封`} className="vg-user-unlock" onClick={() => batch(selected, (ids) => void ask(t`确定将选择账号解封?`, 'unlock', ids, refresh))} />
      )}
    </>
  );

  return (
    <>
      <CrudPage view={view} params={params} aside={<DeptFilter value={deptId} onChange={setDeptId} />} toolbar={toolbar} />
      {granting && (
        <GrantDialog users={granting.users} onClose={() => setGranting(undefined)} onSaved={() => { setGranting(undefined); granting.refresh(); }} />
      )}
      {platformOf && <PlatformDialog row={platformOf} onClose={() => setPlatformOf(undefined)} />}
    </>
  );
}
