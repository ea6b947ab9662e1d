import { Button, Dialog, DialogBody, DialogFooter, FormGroup, HTMLSelect, InputGroup, NumericInput } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { type Envelope, http } from '../../api/client';
import { logFailure } from '../../app/errors';
import type { Page, Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import { confirm } from '../../ui/confirm';
import { toastSuccess } from '../../ui/toast';
import { recycleBinView, type TenantDialog, tenantView } from './tenantView';

const BASE = 'api/blade-system/tenant';
const OPTIONS_PAGE = 1000;

/** A small dialog that saves one tenant call, then closes; a refusal (toasted by the request layer) keeps it open. */
function ActionDialog({ title, className, onClose, save, children }: { title: string; className: string; onClose(): void; save(): Promise<unknown>; children: ReactNode }) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  async function submit() {
    setBusy(true);
    try {
      await save();
      toastSuccess(t`操作成功!`);
      onClose();
    } catch (error) {
      logFailure(error, className);
      setBusy(false);
    }
  }
  return (
    <Dialog isOpen title={title} onClose={onClose} style={{ width: 480, maxWidth: '95vw' }} canOutsideClickClose={false} className={className}>
      <DialogBody>{children}</DialogBody>
      <DialogFooter actions={<><Button text={t`取消`} onClick={onClose} /><Button intent="primary" text={t`保存`} loading={busy} onClick={() => void submit()} className="vg-dialog-save" /></>} />
    </Dialog>
  );
}

/** Options of a select: the rows of a list call, labelled by one column. */
function useOptions(path: string, label: string): Array<{ value: string; label: string }> {
  const [options, setOptions] = useState<Array<{ value: string; label: string }>>([]);
  useEffect(() => {
    void http
      .get<Envelope<Page>>(path, { searchParams: { current: 1, size: OPTIONS_PAGE } })
      .then((r) => setOptions(r.data.records.map((row) => ({ value: String(row.id), label: String(row[label] ?? '') }))), () => setOptions([]));
  }, [path, label]);
  return options;
}

/** 授权配置: account quota (-1 unlimited) and expiry (empty: never). */
function SettingDialog({ row, onClose }: { row: Row; onClose(): void }) {
  const { t } = useLingui();
  const [accountNumber, setAccountNumber] = useState(String(row.accountNumber ?? -1));
  const [expireTime, setExpireTime] = useState(String(row.expireTime ?? '').replace(' ', 'T'));
  const save = () =>
    http.post(`${BASE}/setting`, { json: { ids: row.id, accountNumber, expireTime: expireTime ? `${expireTime.replace('T', ' ')}${expireTime.length === 16 ? ':00' : ''}` : '' } });
  return (
    <ActionDialog title={t`授权配置`} className="vg-tenant-setting" onClose={onClose} save={save}>
      <FormGroup label={t`账号额度`} labelFor="setting-accountNumber" helperText={t`-1 表示不限`}>
        <NumericInput id="setting-accountNumber" fill min={-1} value={accountNumber} onValueChange={(_n, text) => setAccountNumber(text)} />
      </FormGroup>
      <FormGroup label={t`过期时间`} labelFor="setting-expireTime" helperText={t`留空表示永不过期`}>
        <InputGroup id="setting-expireTime" type="datetime-local" step={1} value={expireTime} onChange={(e) => setExpireTime(e.target.value)} />
      </FormGroup>
    </ActionDialog>
  );
}

/** 数据源: the data source the tenant is bound to. */
function DatasourceDialog({ row, onClose }: { row: Row; onClose(): void }) {
  const { t } = useLingui();
  const options = useOptions('api/blade-develop/datasource/list', 'name');
  const [datasourceId, setDatasourceId] = useState(String(row.datasourceId ?? ''));
  const save = () => http.post(`${BASE}/datasource`, { json: { tenantId: row.tenantId, datasourceId } });
  return (
    <ActionDialog title={t`数据源`} className="vg-tenant-datasource" onClose={onClose} save={save}>
      <FormGroup label={t`数据源`} labelFor="tenant-datasource">
        <HTMLSelect id="tenant-datasource" fill value={datasourceId} onChange={(e) => setDatasourceId(e.target.value)} options={[{ value: '', label: t`请选择` }, ...options]} />
      </FormGroup>
    </ActionDialog>
  );
}

/** 产品包配置: the package that limits the tenant's menus (none: every menu). */
function PackageDialog({ row, onClose }: { row: Row; onClose(): void }) {
  const { t } = useLingui();
  const options = useOptions('api/blade-system/tenant-package/list', 'packageName');
  const [packageId, setPackageId] = useState('');
  useEffect(() => {
    void http
      .get<Envelope<Row | null>>(`${BASE}/package-detail`, { searchParams: { tenantId: String(row.tenantId) } })
      .then((r) => setPackageId(r.data ? String(r.data.id) : ''), (error) => logFailure(error, 'package-detail'));
  }, [row.tenantId]);
  const save = () => http.post(`${BASE}/package-setting`, { json: { tenantId: row.tenantId, packageId } });
  return (
    <ActionDialog title={t`产品包配置`} className="vg-tenant-package" onClose={onClose} save={save}>
      <FormGroup label={t`产品包`} labelFor="tenant-package">
        <HTMLSelect id="tenant-package" fill value={packageId} onChange={(e) => setPackageId(e.target.value)} options={[{ value: '', label: t`不限制` }, ...options]} />
      </FormGroup>
    </ActionDialog>
  );
}

/** 回收站: deleted tenants, restored (recovery?ids=) or purged for good (deleteTenantById), each after a confirmation. */
function RecycleBin({ onClose }: { onClose(): void }) {
  const { t } = useLingui();
  const view = useMemo(
    () =>
      recycleBinView(
        (row, context) =>
          void (async () => {
            if (!(await confirm(t`确定恢复选择的租户?`))) return;
            await http.post(`${BASE}/recovery`, { searchParams: { ids: row.id } });
            toastSuccess(t`操作成功!`);
            context.refresh();
          })().catch((error: unknown) => logFailure(error, 'tenant recovery')),
        (row, context) =>
          void (async () => {
            if (!(await confirm(t`确定彻底删除该租户及其全部数据? 此操作不可恢复`))) return;
            const answer = await http.get<Envelope<{ purged?: boolean } | null>>(`${BASE}/deleteTenantById`, { searchParams: { tenantId: String(row.tenantId) } });
            // A large tenant is still being deleted when the call answers: the bin shows its progress.
            toastSuccess(answer.data?.purged === false ? t`租户数据较多,正在后台删除` : t`删除成功`);
            context.refresh();
          })().catch((error: unknown) => logFailure(error, 'tenant purge')),
      ),
    [t],
  );
  return (
    <Dialog isOpen title={t`回收站`} onClose={onClose} style={{ width: 1000, maxWidth: '95vw' }} className="vg-tenant-recycle">
      <DialogBody>
        <CrudPage view={view} />
      </DialogBody>
    </Dialog>
  );
}

/** /system/tenant: the dialogs refresh the list when they close. */
export default function TenantPage() {
  const [dialog, setDialog] = useState<{ kind: TenantDialog; row: Row; refresh(): void }>();
  const [recycleBin, setRecycleBin] = useState<{ refresh(): void }>();
  const view = useMemo(() => tenantView((kind, row, refresh) => setDialog({ kind, row, refresh }), (refresh) => setRecycleBin({ refresh })), []);
  const close = () => {
    dialog?.refresh();
    setDialog(undefined);
  };
  return (
    <>
      <CrudPage view={view} />
      {dialog?.kind === 'setting' && <SettingDialog row={dialog.row} onClose={close} />}
      {dialog?.kind === 'datasource' && <DatasourceDialog row={dialog.row} onClose={close} />}
      {dialog?.kind === 'package' && <PackageDialog row={dialog.row} onClose={close} />}
      {recycleBin && (
        <RecycleBin
          onClose={() => {
            recycleBin.refresh();
            setRecycleBin(undefined);
          }}
        />
      )}
    </>
  );
}
