import { Button, ButtonGroup, Checkbox, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Subject } from 'rxjs';
import { useSearch } from 'wouter';
import { type HistoryState, historyStates, type TimeRange, zoomWindow } from '../../../streams/history';
import { loadChunk } from '../../app/lazyPage';
import { navigate } from '../../app/navigation';
import { historyChart, type LogKey, logKeys } from './api';
import { DEBUG_PATHS, HISTORY_PATH } from './DebugConsole';
import { historyOption, type ZoomPercent } from './historyOption';
import { TargetPicker } from './TargetPicker';
import './device.css';

const EChart = lazy(() => loadChunk(() => import('./EChart')));

const HOUR = 3_600_000;
const PRESETS = [
  { hours: 24, label: '24h' },
  { hours: 24 * 7, label: '7d' },
  { hours: 24 * 30, label: '30d' },
  { hours: 24 * 90, label: '90d' },
] as const;
const MAX_KEYS = 8;

/** /xinde/device/history?id=: a device's history as a line chart with a min/max band; zooming refetches finer data. */
export default function HistoryChartPage() {
  const id = new URLSearchParams(useSearch()).get('id') ?? '';
  return <div className="vg-page">{id ? <HistoryView key={id} deviceId={id} /> : <TargetPicker kind="device" path={HISTORY_PATH} />}</div>;
}

function HistoryView({ deviceId }: { deviceId: string }) {
  const { t } = useLingui();
  const [keys, setKeys] = useState<LogKey[]>();
  const [chosen, setChosen] = useState<string[]>([]);
  const [hours, setHours] = useState<number>(24);
  const [state, setState] = useState<HistoryState>();
  const [extent, setExtent] = useState<TimeRange>();
  const zoom = useRef<ZoomPercent>({ start: 0, end: 100 });
  const zooms = useMemo(() => new Subject<TimeRange>(), []);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void logKeys(deviceId).then(
      (list) => {
        setKeys(list);
        setChosen(list.slice(0, 2).map((k) => k.pointKey));
      },
      () => setKeys([]),
    );
  }, [deviceId]);

  const chosenKey = chosen.join(',');
  useEffect(() => {
    if (!chosenKey) return;
    const end = Date.now();
    const initial = { start: end - hours * HOUR, end };
    setExtent(initial);
    zoom.current = { start: 0, end: 100 };
    const width = Math.max(100, box.current?.clientWidth ?? 1000);
    const subscription = historyStates(initial, zooms, (range) => historyChart(deviceId, chosenKey.split(','), range, width)).subscribe(setState);
    return () => subscription.unsubscribe();
  }, [deviceId, chosenKey, hours, zooms]);

  const option = useMemo(() => (state?.chart && extent ? historyOption(state.chart, extent, zoom.current) : undefined), [state?.chart, extent]);

  if (!keys) return <Spinner size={24} />;
  if (keys.length === 0) return <NonIdealState icon="timeline-line-chart" title={t`该设备还没有点位或数据`} />;
  const toggle = (pointKey: string) =>
    setChosen((list) => (list.includes(pointKey) ? list.filter((k) => k !== pointKey) : [...list, pointKey].slice(-MAX_KEYS)));

  return (
    <>
      <div className="vg-history-toolbar">
        <ButtonGroup>
          {PRESETS.map((p) => (
            <Button key={p.hours} active={hours === p.hours} onClick={() => setHours(p.hours)}>
              {p.label}
            </Button>
          ))}
        </ButtonGroup>
        {keys.map((k) => (
          <Checkbox key={k.pointKey} inline checked={chosen.includes(k.pointKey)} label={k.label} onChange={() => toggle(k.pointKey)} />
        ))}
        {state?.status === 'loading' && <Spinner size={16} />}
        {state?.status === 'error' && <Tag intent="danger">{state.error}</Tag>}
        <Button icon="flash" variant="minimal" onClick={() => navigate(`${DEBUG_PATHS.device}?id=${deviceId}`)}>
          {t`实时调试`}
        </Button>
      </div>
      <div className="vg-history-chart" ref={box}>
        {option && extent && (
          <Suspense fallback={<Spinner size={24} />}>
            <EChart
              option={option}
              onZoom={(event) => {
                const z = event.batch?.[0] ?? event;
                if (typeof z.start === 'number' && typeof z.end === 'number') zoom.current = { start: z.start, end: z.end };
                zooms.next(zoomWindow(extent, event));
              }}
            />
          </Suspense>
        )}
      </div>
      {state?.chart && (
        <div className="vg-history-summary">
          {state.chart.series.map((s) => (
            <span key={s.pointKey} className="vg-history-series" data-key={s.pointKey}>
              {s.name}: {t`${s.count} 个点`}
              {s.bucketMs > 0 ? t`(按 ${Math.round(s.bucketMs / 60_000)} 分钟分组)` : ''}
              {s.data.length > 0 ? ` · ${t`最新`} ${s.buckets?.length ? s.buckets[s.buckets.length - 1][5] : s.data[s.data.length - 1][1]}` : ''}
            </span>
          ))}
        </div>
      )}
    </>
  );
}
