import { Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { type Envelope, http } from '../../api/client';
import { usePermissions } from '../../app/permissions';
import { sessionActor } from '../../app/shell';
import type { Page, Row } from '../../crud/api';
import { CrudPage, type ToolbarContext } from '../../crud/CrudPage';
import type { TreeOption } from '../../crud/types';
import { TreeSelect } from '../../crud/widgets';
import { confirm } from '../../ui/confirm';
import { RowTable } from '../../ui/RowTable';
import { toastSuccess, toastWarning } from '../../ui/toast';
import { projectView, rowsAsOptions, X } from './projectViews';
import { projectRemoveNotice } from './RemoveNotice';

const PLATFORM_TENANT = '000000';
const ADMINISTRATOR = 'administrator';

const tenants = (): Promise<TreeOption[]> =>
  rowsAsOptions('api/blade-system/tenant/list', (t) => `${String(t.tenantName)} (${String(t.tenantId)})`, (t) => String(t.tenantId));

/** Runs a call; the request layer shows a failure, success is toasted here. */
async function run(call: Promise<unknown>, done: string): Promise<boolean> {
  try {
    await call;
    toastSuccess(done);
    return true;
  } catch {
    return false;
  }
}

/** Asks for the project's code before purging it: the purge takes its devices, points and history with it. */
function PurgeDialog({ row, onClose, onPurged }: { row: Row; onClose(): void; onPurged(): void }) {
  const { t } = useLingui();
  const [typed, setTyped] = useState('');
  const code = String(row.code ?? '');
  async function purge() {
    if (await run(http.get(`${X}/project/deleteProjectById`, { searchParams: { id: row.id } }), t`删除成功`)) onPurged();
  }
  return (
    <Dialog isOpen title={t`彻底删除项目`} onClose={onClose} style={{ width: 480 }} className="vg-project-purge">
      <DialogBody>
        <p>{t`彻底删除后,项目「${String(row.name)}」及其设备、网关、监测点、分组和设备的MQTT用户将无法恢复。`}</p>
        <FormGroup label={t`请输入项目编号 ${code} 以确认`} labelFor="purge-code">
          <InputGroup id="purge-code" value={typed} onChange={(e) => setTyped(e.target.value)} />
        </FormGroup>
      </DialogBody>
      <DialogFooter actions={<><Button text={t`取消`} onClick={onClose} /><Button intent="danger" text={t`彻底删除`} disabled={typed.trim() !== code} className="vg-purge-confirm" onClick={() => void purge()} /></>} />
    </Dialog>
  );
}

/** 回收站: removed projects, restored (recovery) or purged for good (deleteProjectById). */
function RecycleDialog({ onClose, onRestored }: { onClose(): void; onRestored(): void }) {
  const { t } = useLingui();
  const [rows, setRows] = useState<Row[]>();
  const [purging, setPurging] = useState<Row>();
  const load = useCallback(() => {
    void http.get<Envelope<Page>>(`${X}/project/recycle`, { searchParams: { current: 1, size: 200 } }).then((r) => setRows(r.data.records ?? []), () => setRows([]));
  }, []);
  useEffect(load, [load]);
  async function restore(row: Row) {
    if (!(await confirm(t`确定恢复项目「${String(row.name)}」?`))) return;
    if (await run(http.get(`${X}/project/recovery`, { searchParams: { projectId: row.id } }), t`操作成功!`)) {
      load();
      onRestored();
    }
  }
  return (
    <Dialog isOpen title={t`回收站`} onClose={onClose} style={{ width: 860, maxWidth: '95vw' }} className="vg-project-recycle">
      <DialogBody>
        {!rows ? (
          <Spinner size={24} />
        ) : rows.length === 0 ? (
          <NonIdealState icon="trash" description={t`回收站中没有项目`} />
        ) : (
          <RowTable
            rows={rows}
            rowKey={(row) => row.id}
            rowClassName={(row) => `vg-recycle-row vg-recycle-${String(row.code)}`}
            columns={[
              { title: t`项目名称`, cell: (row) => String(row.name) },
              { title: t`项目编号`, cell: (row) => String(row.code) },
              { title: t`设备数`, cell: (row) => String(row.deviceCount ?? 0) },
              { title: t`删除时间`, cell: (row) => String(row.updateTime ?? '') },
              {
                title: t`操作`,
                cell: (row) => (
                  <>
                    <Button size="small" variant="minimal" icon="undo" text={t`恢复`} className="vg-recycle-restore" onClick={() => void restore(row)} />
                    <Button size="small" variant="minimal" intent="danger" icon="trash" text={t`彻底删除`} className="vg-recycle-purge" onClick={() => setPurging(row)} />
                  </>
                ),
              },
            ]}
          />
        )}
      </DialogBody>
      <DialogFooter actions={<Button text={t`关闭`} onClick={onClose} />} />
      {purging && <PurgeDialog row={purging} onClose={() => setPurging(undefined)} onPurged={() => { setPurging(undefined); load(); }} />}
    </Dialog>
  );
}

/** 调整租户 (platform administrator): moves the selected projects with everything they own to another tenant. */
function AdjustDialog({ projects, onClose, onDone }: { projects: Row[]; onClose(): void; onDone(): void }) {
  const { t } = useLingui();
  const [tenantId, setTenantId] = useState<string>();
  async function save() {
    if (!tenantId) return toastWarning(t`请选择租户`);
    if (!(await confirm(t`项目及其设备、网关、监测点、阈值、告警和采集策略将移到所选租户;项目的分类、客户、用户分配,以及它在原租户的推送绑定和第三方平台绑定将被解除。确定调整?`))) return;
    if (await run(http.post(`${X}/project/adjustTenant`, { json: { ids: projects.map((p) => p.id).join(','), tenantId } }), t`操作成功!`)) onDone();
  }
  return (
    <Dialog isOpen title={t`调整租户`} onClose={onClose} style={{ width: 480 }} className="vg-project-adjust">
      <DialogBody>
        <p>{projects.map((p) => String(p.name)).join('、')}</p>
        <FormGroup label={t`目标租户`} labelFor="adjust-tenant" labelInfo="*">
          <TreeSelect id="adjust-tenant" source={tenants} value={tenantId} onChange={(id) => setTenantId(String(id))} />
        </FormGroup>
      </DialogBody>
      <DialogFooter actions={<><Button text={t`取消`} onClick={onClose} /><Button intent="primary" text={t`确定`} className="vg-adjust-save" onClick={() => void save()} /></>} />
    </Dialog>
  );
}

/** /xinde/project: projects, their recycle bin and (platform administrator) moving them between tenants. */
export default function ProjectPage() {
  const { t } = useLingui();
  const permissions = usePermissions();
  const platformAdmin = useSelector(sessionActor, (s) => s.context.user?.tenantId === PLATFORM_TENANT && (s.context.user.roleName ?? '').split(',').includes(ADMINISTRATOR));
  const [recycle, setRecycle] = useState<() => void>();
  const [adjusting, setAdjusting] = useState<{ projects: Row[]; refresh(): void }>();
  const view = useMemo(() => ({ ...projectView, removeNotice: projectRemoveNotice }), []);
  const toolbar = ({ selected, refresh }: ToolbarContext) => (
    <>
      {permissions.project_list_recovery === true && <Button icon="trash" text={t`回收站`} className="vg-project-recycle-open" onClick={() => setRecycle(() => refresh)} />}
      {platformAdmin && permissions.project_list_adjust === true && (
        <Button icon="swap-horizontal" text={t`调整租户`} className="vg-project-adjust-open"
          onClick={() => (selected.length ? setAdjusting({ projects: selected, refresh }) : toastWarning(t`请选择至少一条数据`))} />
      )}
    </>
  );
  return (
    <>
      <CrudPage view={view} toolbar={toolbar} />
      {recycle && <RecycleDialog onClose={() => setRecycle(undefined)} onRestored={recycle} />}
      {adjusting && <AdjustDialog projects={adjusting.projects} onClose={() => setAdjusting(undefined)} onDone={() => { setAdjusting(undefined); adjusting.refresh(); }} />}
    </>
  );
}
