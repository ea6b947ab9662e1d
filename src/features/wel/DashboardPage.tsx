import { Button, ButtonGroup, Card, InputGroup, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { Subject } from 'rxjs';
import type { BoardData } from '../../../resources/wire/statistics';
import { loadChunk } from '../../app/lazyPage';
import { navigate } from '../../app/navigation';
import { preferencesActor } from '../../app/shell';
import { ALARM_LEVELS } from '../alarm/levels';
import ErrorPage from '../errors/ErrorPage';
import { boardData } from './api';
import { alarmsPerDayOption, boardHas, onlineOption, pointsPerDayOption, rankedItemAt, rankedOption } from './boardOptions';
import { checkDays, DEFAULT_PRESET, daysOf, RANGE_PRESETS, type RangeChoice } from './boardRange';
import { FigureLink } from './components/FigureLink';
import { alarmsLink, dataLink, deviceLink, devicesLink, type Days, pointLink, pointsLink, type Scope, silentDevicesLink } from './links';
import { ProjectFilter, TenantFilter } from './ScopeFilters';
import { useHeldMenus } from './useHeldMenus';
import { useLiveStats } from './useLiveStats';
import './wel.css';

/** ECharts with bars, its own chunk: the login bundle never carries it, the home neither. */
const BoardChart = lazy(() => loadChunk(() => import('./BoardChart')));

type Held = (href: string) => string | undefined;

/** A panel: its title, the list it summarises, and its chart or table. */
function Panel({ title, to, testId, children }: { title: string; to?: string; testId: string; children: ReactNode }) {
  const { t } = useLingui();
  return (
    <Card className="vg-panel" data-panel={testId}>
      <div className="vg-card-head">
        <h3>{title}</h3>
        {to && <FigureLink to={to}>{t`查看列表`}</FigureLink>}
      </div>
      {children}
    </Card>
  );
}

/** A chart panel's body: the chart, or a sentence when there is nothing to draw. */
function Chart({ option, empty, emptyText, onItem }: { option: object; empty: boolean; emptyText?: string; onItem?(event: { seriesIndex?: number; dataIndex?: number }): void }) {
  const { t } = useLingui();
  const dark = useSelector(preferencesActor, (s) => s.context.theme === 'theme-dark');
  if (empty) return <p className="vg-home-empty">{emptyText ?? t`该时间段内没有数据`}</p>;
  return (
    <div className="vg-panel-chart">
      <Suspense fallback={<Spinner />}>
        <BoardChart option={option} onClick={onItem} theme={dark ? 'dark' : undefined} />
      </Suspense>
    </div>
  );
}

/** The time range: presets, or two days typed and checked before they apply. */
function RangePicker({ choice, onChange }: { choice: RangeChoice; onChange(choice: RangeChoice): void }) {
  const { t, i18n } = useLingui();
  const shown = daysOf(choice);
  const [from, setFrom] = useState(shown.from);
  const [to, setTo] = useState(shown.to);
  const [problem, setProblem] = useState<string>();
  const apply = () => {
    const checked = checkDays(from, to);
    if ('problem' in checked) return setProblem(i18n._(checked.problem));
    setProblem(undefined);
    onChange({ kind: 'custom', days: checked.days });
  };
  return (
    <span className="vg-board-range">
      <ButtonGroup>
        {RANGE_PRESETS.map((days) => (
          <Button key={days} text={t`近${days}天`} active={choice.kind === 'preset' && choice.days === days} data-range={days}
            onClick={() => { const next: RangeChoice = { kind: 'preset', days }; setFrom(daysOf(next).from); setTo(daysOf(next).to); setProblem(undefined); onChange(next); }} />
        ))}
      </ButtonGroup>
      <InputGroup id="board-from" aria-label={t`开始日期`} placeholder="yyyy-MM-dd" value={from} intent={problem ? 'danger' : 'none'} onChange={(e) => setFrom(e.target.value)} />
      <span>-</span>
      <InputGroup id="board-to" aria-label={t`结束日期`} placeholder="yyyy-MM-dd" value={to} intent={problem ? 'danger' : 'none'} onChange={(e) => setTo(e.target.value)} />
      <Button text={t`确定`} className="vg-board-apply" onClick={apply} />
      {problem && <Tag intent="danger" minimal>{problem}</Tag>}
    </span>
  );
}

/** The devices silent for longest, each leading to it. */
function SilentDevices({ board, held }: { board: BoardData; held: Held }) {
  const { t } = useLingui();
  if (board.silentDevices.length === 0) return <p className="vg-home-empty">{t`没有离线设备`}</p>;
  return (
    <table className="vg-silent">
      <thead>
        <tr>
          <th>{t`设备`}</th>
          <th>{t`所属项目`}</th>
          <th>{t`最后上报`}</th>
        </tr>
      </thead>
      <tbody>
        {board.silentDevices.map((d) => (
          <tr key={d.id} data-device={d.id}>
            <td>
              <FigureLink to={held(deviceLink(d.id))}>{`${d.name} (${d.code})`}</FigureLink>
            </td>
            <td>{d.projectName ?? '—'}</td>
            <td>{d.lastSeen ?? <Tag minimal intent="warning">{t`从未上线`}</Tag>}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The panels of one answer; every item clicked leads to the list behind it. */
function Panels({ board, days, scope, held }: { board: BoardData; days: Days; scope: Scope; held: Held }) {
  const { t, i18n } = useLingui();
  const go = (href: string | undefined) => href && navigate(href);
  const raised = { raised: days };
  return (
    <section className="vg-board-panels">
      <Panel title={t`设备在线率`} to={held(devicesLink('offline', scope))} testId="online">
        {/* The server samples the share online periodically: a fresh platform has none yet. */}
        <Chart option={onlineOption(board.online, i18n)} empty={!boardHas.online(board)} emptyText={t`该时间段内尚无在线率记录(定时采样)`} onItem={() => go(held(devicesLink('offline', scope)))} />
      </Panel>
      <Panel title={t`每日告警(按等级)`} to={held(alarmsLink(raised, scope))} testId="alarmsPerDay">
        <Chart option={alarmsPerDayOption(board.alarmsPerDay, i18n)} empty={!boardHas.alarmsPerDay(board)}
          onItem={({ seriesIndex = -1, dataIndex = -1 }) => {
            const day = board.alarmsPerDay[dataIndex]?.day;
            const level = ALARM_LEVELS[seriesIndex];
            if (day && level) go(held(alarmsLink({ level, raised: { from: day, to: day } }, scope)));
          }} />
      </Panel>
      <Panel title={t`各项目告警`} to={held(alarmsLink(raised, scope))} testId="alarmsByProject">
        <Chart option={rankedOption(board.alarmsByProject, t`告警`, '#f56c6c')} empty={board.alarmsByProject.length === 0}
          onItem={({ dataIndex = -1 }) => {
            const item = rankedItemAt(board.alarmsByProject, dataIndex);
            if (item) go(held(alarmsLink(raised, { ...scope, projectId: item.id })));
          }} />
      </Panel>
      {/* The alarm list has no monitor type to filter on: the panel leads to the range's alarms. */}
      <Panel title={t`各监测类型告警`} to={held(alarmsLink(raised, scope))} testId="alarmsByMonitorType">
        <Chart option={rankedOption(board.alarmsByMonitorType, t`告警`, '#ff9800')} empty={board.alarmsByMonitorType.length === 0} />
      </Panel>
      <Panel title={t`每日数据量`} to={held(dataLink(days, scope))} testId="pointsPerDay">
        <Chart option={pointsPerDayOption(board.pointsPerDay, i18n)} empty={!boardHas.pointsPerDay(board)}
          onItem={({ dataIndex = -1 }) => {
            const day = board.pointsPerDay[dataIndex]?.day;
            if (day) go(held(dataLink({ from: day, to: day }, scope)));
          }} />
      </Panel>
      <Panel title={t`最活跃监测点`} to={held(pointsLink(scope))} testId="activePoints">
        <Chart option={rankedOption(board.activePoints, t`数据点`)} empty={board.activePoints.length === 0}
          onItem={({ dataIndex = -1 }) => {
            const item = rankedItemAt(board.activePoints, dataIndex);
            if (item) go(held(pointLink(item.id)));
          }} />
      </Panel>
      <Panel title={t`沉默最久的设备`} to={held(silentDevicesLink(scope))} testId="silentDevices">
        <SilentDevices board={board} held={held} />
      </Panel>
    </section>
  );
}

/**
 * /wel/dashboard — the data board (数据看板, spec §2): what a supervisor reads over a range — online rate, alarms per
 * day by level, by project and by monitor type, data volume, the most active monitor points, the silent devices —
 * for a project or all the user sees; the platform administrator for one tenant or every tenant.
 */
export default function DashboardPage() {
  const { t } = useLingui();
  const [projectId, setProjectId] = useState<string>();
  const [tenantId, setTenantId] = useState<string>();
  const [choice, setChoice] = useState<RangeChoice>({ kind: 'preset', days: DEFAULT_PRESET });
  const [refreshes] = useState(() => new Subject<void>());
  const days = daysOf(choice);
  const query = { projectId, tenantId, startTime: days.from, endTime: days.to };
  const { entries, held, board: allowed } = useHeldMenus();
  // The board's call answers holders of 监测大屏 only: nothing is asked before that is known.
  const figures = useLiveStats(() => boardData(query), JSON.stringify(query), refreshes, allowed);
  const scope = useMemo<Scope>(() => ({ projectId, tenantId }), [projectId, tenantId]);
  const board = figures.data;
  if (entries && !allowed) return <ErrorPage code="403" />;

  return (
    <div className="vg-page vg-board">
      <header className="vg-board-head">
        <h2>{t`数据看板`}</h2>
        <span className="vg-spacer" />
        <TenantFilter value={tenantId} onChange={setTenantId} />
        <ProjectFilter value={projectId} onChange={setProjectId} />
        <RangePicker choice={choice} onChange={setChoice} />
        {figures.stale && <Tag intent="warning" minimal>{t`数据未能更新`}</Tag>}
        {figures.loading ? <Spinner size={16} /> : <Button variant="minimal" icon="refresh" title={t`刷新`} aria-label={t`刷新`} onClick={() => refreshes.next()} />}
      </header>
      {board ? (
        <Panels board={board} days={days} scope={scope} held={held} />
      ) : figures.loading || !entries ? (
        <Spinner />
      ) : (
        <NonIdealState icon="error" title={t`加载失败`} action={<Button icon="refresh" text={t`重试`} onClick={() => refreshes.next()} />} />
      )}
    </div>
  );
}
