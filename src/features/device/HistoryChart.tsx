import { Button, ButtonGroup, Checkbox, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Subject } from 'rxjs';
import { useSearch } from 'wouter';
import { formatDateTime } from '../../../resources/datetime';
import { displayUnit, formatReading } from '../../../resources/readings';
import { type HistoryChartData, type HistoryCommand, type HistoryState, historyStates, zoomWindow } from '../../../streams/history';
import { loadChunk } from '../../app/lazyPage';
import { navigate } from '../../app/navigation';
import { saveFile } from '../../ui/saveFile';
import { toast } from '../../ui/toast';
import { historyChart, type LogKey, logKeys } from './api';
import { DEBUG_PATHS, HISTORY_PATH } from './DebugConsole';
import { dataUrlBlob, exportName, exportTable, toCsv, toXlsx, windowOf } from './historyExport';
import { historyOption, imageOption } from './historyOption';
import { checkCustom, choiceKey, choiceOf, PRESETS, type Preset, type RangeChoice, type RangeProblem, rangeOf, withChoice } from './historyRange';
import { TargetPicker } from './TargetPicker';
import './device.css';

const EChart = lazy(() => loadChunk(() => import('./EChart')));

const PRESET_LABELS: Record<Preset, MessageDescriptor> = { '1h': msg`1小时`, '6h': msg`6小时`, '24h': msg`24小时`, '7d': msg`7天`, '30d': msg`30天` };
const MAX_KEYS = 8;
const IMAGE_HEIGHT = 520;

/** The zoom percentages of one axis extent: a new extent (another range, a fit) starts unzoomed. */
interface Zoom {
  extent: string;
  start: number;
  end: number;
}

/** /xinde/device/history?id=: a device's history as a line chart with a min/max band; zooming refetches finer data. */
export default function HistoryChartPage() {
  const id = new URLSearchParams(useSearch()).get('id') ?? '';
  return <div className="vg-page">{id ? <HistoryView key={id} deviceId={id} /> : <TargetPicker kind="device" path={HISTORY_PATH} />}</div>;
}

function HistoryView({ deviceId }: { deviceId: string }) {
  const { t } = useLingui();
  const search = useSearch();
  const choice = useMemo(() => choiceOf(new URLSearchParams(search)), [search]);
  const [keys, setKeys] = useState<LogKey[]>();
  const [chosen, setChosen] = useState<string[]>([]);
  /** Bumped by choosing the current preset again: its range then ends at the new now. */
  const [reload, setReload] = useState(0);
  const [state, setState] = useState<HistoryState>();
  const [commands, setCommands] = useState<Subject<HistoryCommand>>();
  const zoom = useRef<Zoom>({ extent: '', start: 0, end: 100 });
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
  const rangeKey = choiceKey(choice);
  useEffect(() => {
    if (!chosenKey) return;
    const range = rangeOf(choice, Date.now());
    const width = Math.max(100, box.current?.clientWidth ?? 1000);
    const next = new Subject<HistoryCommand>();
    setCommands(next);
    const subscription = historyStates(range, next, (window) => historyChart(deviceId, chosenKey.split(','), window, width)).subscribe(setState);
    return () => subscription.unsubscribe();
  }, [deviceId, chosenKey, rangeKey, reload]);

  const extentKey = state ? `${state.extent.start}-${state.extent.end}` : '';
  const zoomOf = () => (zoom.current.extent === extentKey ? zoom.current : { extent: extentKey, start: 0, end: 100 });
  const option = useMemo(() => (state?.chart ? historyOption(state.chart, state.extent, zoomOf(), state.overview) : undefined), [state?.chart, state?.overview, extentKey]);

  if (!keys) return <Spinner size={24} />;
  if (keys.length === 0) return <NonIdealState icon="timeline-line-chart" title={t`该设备还没有点位或数据`} />;
  const toggle = (pointKey: string) =>
    setChosen((list) => (list.includes(pointKey) ? list.filter((k) => k !== pointKey) : [...list, pointKey].slice(-MAX_KEYS)));
  const choose = (next: RangeChoice) => {
    if (choiceKey(next) === rangeKey) setReload((n) => n + 1);
    else navigate(`${HISTORY_PATH}?${withChoice(new URLSearchParams(search), next)}`, true);
  };
  /** What the plot shows now: the chart inside the zoomed window of its axis. */
  const displayed = () => (state?.chart ? windowOf(state.chart, zoomWindow(state.extent, zoomOf())) : undefined);
  const hasData = !!state?.chart?.series.some((s) => s.data.length > 0);

  return (
    <>
      <div className="vg-history-toolbar">
        <ButtonGroup>
          {PRESETS.map((preset) => (
            <Button key={preset} active={choice.kind === 'preset' && choice.preset === preset} onClick={() => choose({ kind: 'preset', preset })}>
              {t(PRESET_LABELS[preset])}
            </Button>
          ))}
        </ButtonGroup>
        <CustomRange choice={choice} onApply={choose} />
        <Button
          className="vg-history-fit"
          icon="timeline-line-chart"
          active={state?.fitted}
          disabled={!hasData}
          title={state?.fitted ? t`显示所选的完整时间范围` : t`横轴只显示有数据的时段`}
          onClick={() => commands?.next({ kind: state?.fitted ? 'full' : 'fit' })}
        >
          {state?.fitted ? t`完整范围` : t`适应数据`}
        </Button>
        <ExportButtons disabled={!hasData} displayed={displayed} option={option} title={state?.chart} />
        {state?.status === 'loading' && <Spinner size={16} />}
        {state?.status === 'error' && <Tag intent="danger">{state.error}</Tag>}
        <Button icon="flash" variant="minimal" onClick={() => navigate(`${DEBUG_PATHS.device}?id=${deviceId}`)}>
          {t`实时调试`}
        </Button>
      </div>
      <div className="vg-history-toolbar">
        {keys.map((k) => (
          <Checkbox key={k.pointKey} inline checked={chosen.includes(k.pointKey)} label={displayUnit(k.label)} onChange={() => toggle(k.pointKey)} />
        ))}
      </div>
      <div className="vg-history-chart" ref={box}>
        {option && state && (
          <Suspense fallback={<Spinner size={24} />}>
            <EChart
              option={option}
              onZoom={(event) => {
                const z = event.batch?.[0] ?? event;
                if (typeof z.start === 'number' && typeof z.end === 'number') zoom.current = { extent: extentKey, start: z.start, end: z.end };
                commands?.next({ kind: 'zoom', window: zoomWindow(state.extent, event) });
              }}
            />
          </Suspense>
        )}
      </div>
      {state?.chart && <Summary chart={state.chart} />}
    </>
  );
}

function Summary({ chart }: { chart: HistoryChartData }) {
  const { t } = useLingui();
  return (
    <div className="vg-history-summary">
      {chart.series.map((s) => {
        const latest = s.buckets?.length ? s.buckets[s.buckets.length - 1][5] : s.data[s.data.length - 1]?.[1];
        return (
          <span key={s.pointKey} className="vg-history-series" data-key={s.pointKey}>
            {displayUnit(s.name)}: {t`${s.count} 个点`}
            {s.bucketMs > 0 ? t`(按 ${Math.round(s.bucketMs / 60_000)} 分钟分组)` : ''}
            {latest !== undefined ? ` · ${t`最新`} ${formatReading(latest, s.precision, s.unit)}` : ''}
          </span>
        );
      })}
    </div>
  );
}

const PROBLEMS: Record<RangeProblem, MessageDescriptor> = {
  start: msg`开始时间应为 yyyy-MM-dd HH:mm:ss`,
  end: msg`结束时间应为 yyyy-MM-dd HH:mm:ss`,
  order: msg`开始时间应早于结束时间`,
  tooLong: msg`时间范围不能超过3年`,
};

/** 自定义: two `yyyy-MM-dd HH:mm:ss` inputs, prefilled with the range shown, checked before they apply. */
function CustomRange({ choice, onApply }: { choice: RangeChoice; onApply(choice: RangeChoice): void }) {
  const { t } = useLingui();
  const [open, setOpen] = useState(choice.kind === 'custom');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [problem, setProblem] = useState<RangeProblem>();
  const toggle = () => {
    if (!open) {
      const range = rangeOf(choice, Date.now());
      setStart(formatDateTime(new Date(range.start)));
      setEnd(formatDateTime(new Date(range.end)));
      setProblem(undefined);
    }
    setOpen(!open);
  };
  useEffect(() => {
    // A preset chosen: the inputs go; a custom range (from the URL too) is shown in them.
    setOpen(choice.kind === 'custom');
    if (choice.kind !== 'custom') return;
    setStart(formatDateTime(new Date(choice.range.start)));
    setEnd(formatDateTime(new Date(choice.range.end)));
  }, [choice]);
  const apply = () => {
    const checked = checkCustom(start, end);
    setProblem('problem' in checked ? checked.problem : undefined);
    if ('range' in checked) onApply({ kind: 'custom', range: checked.range });
  };
  const input = (id: string, label: string, value: string, set: (text: string) => void, bad: boolean) => (
    <InputGroup
      id={id}
      aria-label={label}
      className="vg-history-time"
      placeholder="yyyy-MM-dd HH:mm:ss"
      intent={bad ? 'danger' : 'none'}
      value={value}
      onChange={(e) => set(e.target.value)}
      onKeyDown={(e) => e.key === 'Enter' && apply()}
    />
  );
  return (
    <>
      <Button icon="calendar" active={choice.kind === 'custom' || open} onClick={toggle}>
        {t`自定义`}
      </Button>
      {open && (
        <span className="vg-history-custom">
          {input('vg-history-start', t`开始时间`, start, setStart, problem === 'start' || problem === 'order' || problem === 'tooLong')}
          <span>—</span>
          {input('vg-history-end', t`结束时间`, end, setEnd, problem === 'end' || problem === 'order' || problem === 'tooLong')}
          <Button intent="primary" onClick={apply}>
            {t`查看`}
          </Button>
          {problem && <span className="vg-history-problem">{t(PROBLEMS[problem])}</span>}
        </span>
      )}
    </>
  );
}

interface ExportProps {
  disabled: boolean;
  /** The chart as displayed now (its zoomed window), read when a button is pressed. */
  displayed(): HistoryChartData | undefined;
  option: ReturnType<typeof historyOption> | undefined;
  /** The chart answer naming the device. */
  title: HistoryChartData | undefined;
}

/** Image, CSV and Excel of what the chart displays. */
function ExportButtons({ disabled, displayed, option, title }: ExportProps) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const run = async (save: (chart: HistoryChartData) => Promise<void>) => {
    const chart = displayed();
    if (!chart) return;
    setBusy(true);
    try {
      await save(chart);
    } catch (error) {
      toast(t`导出失败: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setBusy(false);
    }
  };
  const heading = [title?.code, title?.name].filter(Boolean).join(' ');
  const png = (chart: HistoryChartData) =>
    loadChunk(() => import('./EChart')).then(({ renderImage }) => {
      if (!option) return;
      const span = `${formatDateTime(new Date(chart.start))} — ${formatDateTime(new Date(chart.end))}`;
      const width = Math.max(800, document.querySelector('.vg-history-chart')?.clientWidth ?? 1000);
      saveFile(dataUrlBlob(renderImage(imageOption(option, heading || t`历史曲线`, span), width, IMAGE_HEIGHT)), exportName(chart, 'png'));
    });
  const csv = async (chart: HistoryChartData) => saveFile(new Blob([toCsv(exportTable(chart, t`时间`))], { type: 'text/csv;charset=utf-8' }), exportName(chart, 'csv'));
  const xlsx = async (chart: HistoryChartData) => saveFile(await toXlsx(exportTable(chart, t`时间`), heading || t`历史曲线`), exportName(chart, 'xlsx'));
  return (
    <ButtonGroup>
      <Button icon="camera" disabled={disabled || busy} onClick={() => void run(png)}>
        {t`导出图片`}
      </Button>
      <Button icon="download" disabled={disabled || busy} onClick={() => void run(csv)}>
        {t`导出CSV`}
      </Button>
      <Button icon="export" disabled={disabled || busy} onClick={() => void run(xlsx)}>
        {t`导出Excel`}
      </Button>
    </ButtonGroup>
  );
}
