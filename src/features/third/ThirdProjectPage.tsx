import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import type { CrudView, RowActionContext } from '../../crud/types';
import { toastSuccess, toastWarning } from '../../ui/toast';
import { thirdApi } from './api';
import { BindDeviceDialog } from './BindDeviceDialog';
import { BindProjectDialog } from './BindProjectDialog';
import { thirdProjectView } from './thirdViews';

/**
 * /xinde/thirdmonitorproject — project bindings. 绑定项目 (third_project_bind) binds a local project, or a new one, to
 * a remote project; per row 绑定设备, 同步设备, 同步测点 and 拉取数据; deleting a row unbinds it.
 */
export default function ThirdProjectPage() {
  const { t } = useLingui();
  const [binding, setBinding] = useState<RowActionContext>();
  const [devices, setDevices] = useState<{ row: Row; context: RowActionContext }>();
  const view = useMemo<CrudView<typeof thirdProjectView.resource>>(() => {
    /** Runs a call of the row, says how it went, and reloads the list. */
    const act = (call: (row: Row) => Promise<string>) => async (row: Row, context: RowActionContext) => {
      try {
        toastSuccess(await call(row));
      } catch {
        // the request layer has shown the failure
      }
      context.refresh();
    };
    const syncDevices = act(async (row) => {
      const r = await thirdApi.syncDevices(String(row.projectId));
      return t`设备 ${r.total} 台:新增 ${r.created},更新 ${r.updated},未变 ${r.unchanged};点位新增 ${r.points.created},更新 ${r.points.updated}`;
    });
    const syncPoints = act(async (row) => {
      const r = await thirdApi.syncPoints(String(row.projectId));
      return t`测点 ${r.total} 个:新增 ${r.created},更新 ${r.updated},未变 ${r.unchanged};新增测点绑定 ${r.relations}`;
    });
    const pull = async (row: Row, context: RowActionContext) => {
      try {
        const r = await thirdApi.pull({ bindingId: row.id });
        const summary = t`拉取 ${r.devices} 台设备,新增或更新 ${r.readings} 条数据`;
        if (r.failures.length) toastWarning(`${summary}; ${t`失败`}: ${r.failures.join('; ')}`);
        else toastSuccess(summary);
      } catch {
        // the request layer has shown the failure
      }
      context.refresh();
    };
    return {
      ...thirdProjectView,
      toolbarActions: [{ key: 'bind', label: msg`绑定项目`, icon: 'link', permission: 'bind', run: (context) => setBinding(context) }],
      rowActions: [
        { key: 'devices', label: msg`绑定设备`, icon: 'link', permission: 'bind', run: (row, context) => setDevices({ row, context }) },
        { key: 'syncDevices', label: msg`同步设备`, icon: 'refresh', permission: 'bind', run: (row, context) => void syncDevices(row, context) },
        { key: 'syncPoints', label: msg`同步测点`, icon: 'exchange', permission: 'bind', run: (row, context) => void syncPoints(row, context) },
        { key: 'pull', label: msg`拉取数据`, icon: 'download', run: (row, context) => void pull(row, context) },
      ],
    };
  }, [t]);
  return (
    <>
      <CrudPage view={view} />
      {binding && <BindProjectDialog onClose={() => setBinding(undefined)} onBound={binding.refresh} />}
      {devices && <BindDeviceDialog row={devices.row} onClose={() => setDevices(undefined)} onSaved={devices.context.refresh} />}
    </>
  );
}
