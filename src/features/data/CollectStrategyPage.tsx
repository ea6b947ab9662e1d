import { useLingui } from '@lingui/react/macro';
import { msg } from '@lingui/core/macro';
import { useMemo } from 'react';
import { type Envelope, http } from '../../api/client';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import type { CrudView } from '../../crud/types';
import { toastSuccess } from '../../ui/toast';
import { collectStrategyView } from './dataViews';

const enabled = (row: Row) => Number(row.enabled) === 1;

/** /xinde/collectstrategy — 启动 / 停止 (collect_strategy_start / _stop) switch a strategy with collectstrategy/update. */
export default function CollectStrategyPage() {
  const { t } = useLingui();
  const view = useMemo<CrudView<typeof collectStrategyView.resource>>(() => {
    const switchTo = (on: 0 | 1) => async (row: Row, context: { refresh(): void }) => {
      try {
        await http.post<Envelope<unknown>>('api/wit-xinde/collectstrategy/update', { json: { id: row.id, enabled: on } });
        toastSuccess(on ? t`策略已启动` : t`策略已停止`);
        context.refresh();
      } catch {
        // the request layer has shown the failure (请设置采集间隔或采集时刻, 请选择网关或设备…)
      }
    };
    return {
      ...collectStrategyView,
      rowActions: [
        { key: 'start', label: msg`启动`, icon: 'play', permission: 'start', visible: (row) => !enabled(row), run: (row, context) => void switchTo(1)(row, context) },
        { key: 'stop', label: msg`停止`, icon: 'stop', permission: 'stop', visible: enabled, run: (row, context) => void switchTo(0)(row, context) },
      ],
    };
  }, [t]);
  return <CrudPage view={view} />;
}
