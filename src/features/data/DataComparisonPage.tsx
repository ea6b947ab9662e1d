import { Dialog, DialogBody, NonIdealState, Spinner } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import type { HistoryChartData } from '../../../streams/history';
import { type Envelope, http } from '../../api/client';
import { loadChunk } from '../../app/lazyPage';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import type { CrudView } from '../../crud/types';
import { historyOption } from '../device/historyOption';
import { comparisonView } from './dataViews';

const EChart = lazy(() => loadChunk(() => import('../device/EChart')));

/** Chart width in buckets, as the device history asks. */
const CHART_WIDTH = 1000;

const comparisonChart = (id: string) =>
  http
    .get<Envelope<HistoryChartData & { name: string; batchNumber: string }>>('api/wit-xinde/datacomparison/getHistoryEchartsData', { searchParams: { id, width: CHART_WIDTH } })
    .then((r) => r.data);

/** 对比曲线: the comparison's channels over its period, on the device history's chart. */
function ChartDialog({ row, onClose }: { row: Row; onClose(): void }) {
  const { t } = useLingui();
  const [chart, setChart] = useState<HistoryChartData>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    comparisonChart(row.id).then(setChart, () => setFailed(true));
  }, [row.id]);
  const option = useMemo(() => (chart ? historyOption(chart, { start: chart.start, end: chart.end }) : undefined), [chart]);
  const empty = chart?.series.every((s) => s.data.length === 0);
  return (
    <Dialog isOpen title={t`对比曲线: ${String(row.name)} (${String(row.batchNumber)})`} onClose={onClose} style={{ width: 1100, maxWidth: '95vw' }} className="vg-comparison-chart">
      <DialogBody>
        <div style={{ height: 460 }}>
          {failed ? (
            <NonIdealState icon="error" title={t`加载失败`} />
          ) : !option ? (
            <Spinner />
          ) : (
            <>
              {empty && <p className="vg-chart-empty">{t`该时间段内没有数据`}</p>}
              <Suspense fallback={<Spinner />}>
                <EChart option={option} />
              </Suspense>
            </>
          )}
        </div>
      </DialogBody>
    </Dialog>
  );
}

/** /xinde/datacomparison — comparisons of channels by batch, each with its chart. */
export default function DataComparisonPage() {
  const [charted, setCharted] = useState<Row>();
  const view = useMemo<CrudView<typeof comparisonView.resource>>(
    () => ({ ...comparisonView, rowActions: [{ key: 'chart', label: msg`对比曲线`, icon: 'timeline-line-chart', run: (row) => setCharted(row) }] }),
    [],
  );
  return (
    <>
      <CrudPage view={view} />
      {charted && <ChartDialog row={charted} onClose={() => setCharted(undefined)} />}
    </>
  );
}
