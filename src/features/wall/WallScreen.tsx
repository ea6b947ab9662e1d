import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { type ReactNode, useEffect, useRef, useSyncExternalStore } from 'react';
import type { ScreenLayout } from '../../../resources/wire/screen';
import type { ProjectView } from '../../../streams/screenSnapshot';
import type { ScreenState } from '../../../streams/screenState';
import { AlarmPanel } from './AlarmPanel';
import { clockOf } from './format';
import { StatsPanel } from './StatsPanel';
import { StructurePanel } from './StructurePanel';
import { TrendPanel } from './TrendPanel';
import { ValuesPanel } from './ValuesPanel';
import { useNow, useRotation } from './wallHooks';
import type { WallRuntime } from './wallRuntime';

/** The lifecycle state the header shows (machines/screen.ts), its top-level name. */
export function phaseOf(value: unknown): string {
  return typeof value === 'string' ? value : Object.keys(value as object)[0];
}

function Clock() {
  const now = useNow();
  return <time className="vg-wall-clock">{clockOf(now, true)}</time>;
}

/** Live, or since when the data stopped, or reconnecting: what the screen's data is worth right now. */
function LinkState({ runtime }: { runtime: WallRuntime }) {
  const { t } = useLingui();
  const phase = useSelector(runtime.actor, (s) => phaseOf(s.value));
  const staleSince = useSelector(runtime.actor, (s) => s.context.staleSince);
  if (phase === 'live') return <span className="vg-wall-link is-live">{t`实时`}</span>;
  if (staleSince !== undefined) {
    const time = clockOf(staleSince);
    return <span className="vg-wall-link is-stale">{t`数据停止于 ${time}`}</span>;
  }
  return <span className="vg-wall-link is-connecting">{t`正在重新连接…`}</span>;
}

/** The hint that the alarm sound waits for a click (alarmSound.ts). */
function SoundHint({ runtime }: { runtime: WallRuntime }) {
  const { t } = useLingui();
  const state = useSyncExternalStore(runtime.sound.subscribe, runtime.sound.state);
  if (state !== 'blocked') return null;
  return (
    <button type="button" className="vg-wall-sound" onClick={runtime.sound.unlock}>
      {t`点击任意处启用告警声音`}
    </button>
  );
}

function Panel({ title, className, children }: { title: string; className: string; children: ReactNode }) {
  return (
    <section className={`vg-wall-panel ${className}`}>
      <h2>{title}</h2>
      <div className="vg-wall-panel-body">{children}</div>
    </section>
  );
}

const ORDER: Record<ScreenLayout, ScreenLayout[]> = {
  structure: ['structure', 'values', 'trends'],
  values: ['values', 'structure', 'trends'],
  trends: ['trends', 'values', 'structure'],
};

/**
 * The screen: a header (link, project and its place in the rotation, link state, clock), the link's main panel
 * large with the other two under it, and on the side the project's figures and the open alarms. A red alarm that
 * arrives flashes the screen and beeps.
 */
export function WallScreen({ runtime, state, scale }: { runtime: WallRuntime; state: Required<Pick<ScreenState, 'data'>> & ScreenState; scale: number }) {
  const { t } = useLingui();
  const { data } = state;
  const index = useRotation(data.projects.length, data.link.rotateSeconds);
  const project = data.projects[index] as ProjectView | undefined;
  const stale = useSelector(runtime.actor, (s) => phaseOf(s.value) !== 'live');

  const heard = useRef(state.redArrivals);
  useEffect(() => {
    if (state.redArrivals > heard.current) runtime.sound.play();
    heard.current = state.redArrivals;
  }, [state.redArrivals]);

  const titles: Record<ScreenLayout, string> = { structure: t`结构测点`, values: t`最新数据`, trends: t`趋势曲线` };
  const panel = (layout: ScreenLayout) => {
    if (!project) return null;
    const body = layout === 'structure' ? <StructurePanel key={project.id} runtime={runtime} project={project} /> : layout === 'values' ? <ValuesPanel key={project.id} runtime={runtime} project={project} /> : <TrendPanel runtime={runtime} project={project} scale={scale} />;
    return (
      <Panel key={layout} title={titles[layout]} className={`is-${layout}`}>
        {body}
      </Panel>
    );
  };
  const [main, ...others] = ORDER[data.link.layout] ?? ORDER.structure;
  return (
    <div className={`vg-wall-screen${stale ? ' is-stale' : ''}`}>
      <header className="vg-wall-header">
        <div className="vg-wall-title">{data.link.name}</div>
        <div className="vg-wall-project">
          <span data-project={project?.id}>{project?.name ?? t`没有可显示的项目`}</span>
          {data.projects.length > 1 && (
            <span className="vg-wall-dots">
              {data.projects.map((p, i) => (
                <i key={p.id} className={i === index ? 'is-current' : ''} />
              ))}
            </span>
          )}
        </div>
        <SoundHint runtime={runtime} />
        <LinkState runtime={runtime} />
        <Clock />
      </header>
      <main className="vg-wall-body">
        <div className="vg-wall-main">
          <div className="vg-wall-primary">{panel(main)}</div>
          <div className="vg-wall-secondary">{others.map(panel)}</div>
        </div>
        <aside className="vg-wall-side">
          {project && (
            <Panel title={t`项目概况`} className="is-stats">
              <StatsPanel runtime={runtime} project={project} />
            </Panel>
          )}
          <Panel title={t`告警 (${data.alarms.length})`} className="is-alarms">
            <AlarmPanel alarms={data.alarms} latestRed={state.lastRed?.id} />
          </Panel>
        </aside>
      </main>
      {state.redArrivals > 0 && <div key={state.redArrivals} className="vg-wall-flash" aria-hidden="true" />}
    </div>
  );
}
