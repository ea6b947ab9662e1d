import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useMemo } from 'react';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import type { CrudView, RowActionContext } from '../../crud/types';
import { toastSuccess, toastWarning } from '../../ui/toast';
import { thirdApi } from './api';
import { thirdParamView } from './thirdViews';

/** /xinde/thirdmonitorparam — 测试连接 signs in and lists the remote projects; 拉取数据 pulls every bound device now. */
export default function ThirdParamPage() {
  const { t } = useLingui();
  const view = useMemo<CrudView<typeof thirdParamView.resource>>(() => {
    async function test(row: Row) {
      try {
        const projects = await thirdApi.remoteProjects(row.id);
        toastSuccess(t`连接成功,共 ${projects.length} 个第三方项目`);
      } catch {
        // the request layer has shown why (登录失败, 无法访问, 响应超时…)
      }
    }
    async function pull(row: Row, context: RowActionContext) {
      try {
        const result = await thirdApi.pull({ thirdParamId: row.id });
        const summary = t`拉取 ${result.devices} 台设备,新增或更新 ${result.readings} 条数据`;
        if (result.failures.length) toastWarning(`${summary}; ${t`失败`}: ${result.failures.join('; ')}`);
        else toastSuccess(summary);
      } catch {
        // shown by the request layer; the failure is recorded on the row
      }
      context.refresh();
    }
    return {
      ...thirdParamView,
      rowActions: [
        { key: 'test', label: msg`测试连接`, icon: 'tick-circle', run: (row) => void test(row) },
        { key: 'pull', label: msg`拉取数据`, icon: 'download', run: (row, context) => void pull(row, context) },
      ],
    };
  }, [t]);
  return <CrudPage view={view} />;
}
