import { Button, Card, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { merge, Subject } from 'rxjs';
import type { IndexData } from '../../../resources/wire/statistics';
import { navigate } from '../../app/navigation';
import { sessionActor } from '../../app/shell';
import { needsRegistration } from '../shell/registration';
import { noticeListAvailable, noticeMarks$, openNoticeList } from '../notice/noticeRequests';
import { indexData } from './api';
import { LatestAlarms, type LinkIfHeld, OpenAlarms, PresenceCard, StatCard, StatSkeletons } from './components/HomeCards';
import { QuickEntries } from './components/QuickEntries';
import { alarmsLink, dataSinceLink, devicesLink, gatewaysLink, projectsLink, type Scope } from './links';
import { ProjectFilter } from './ScopeFilters';
import { useLiveStats } from './useLiveStats';
import { useHeldMenus } from './useHeldMenus';
import './wel.css';

export const BOARD_PATH = '/wel/dashboard';

/** Project, devices, gateways, today's data and unread notices. */
function Figures({ data, scope, held }: { data: IndexData; scope: Scope; held: LinkIfHeld }) {
  const { t } = useLingui();
  const today = data.at.slice(0, 10);
  return (
    <section className="vg-home-stats">
      <StatCard icon="projects" title={t`项目`} to={held(projectsLink(scope))} value={data.projects} testId="projects" />
      <PresenceCard icon="mobile-phone" title={t`设备`} counts={data.devices} testId="devices" linkOf={(presence) => held(devicesLink(presence, scope))} />
      <PresenceCard icon="cell-tower" title={t`网关`} counts={data.gateways} testId="gateways" linkOf={() => held(gatewaysLink(scope))} />
      <StatCard icon="database" title={t`今日数据`} to={held(dataSinceLink(today, scope))} value={data.pointsToday} testId="pointsToday">
        <div className="vg-stat-note">{t`自 ${today} 00:00 起存储的数据点`}</div>
      </StatCard>
      <StatCard icon="warning-sign" title={t`未处理告警`} to={held(alarmsLink({ unhandled: true }, scope))} value={data.unhandledAlarms} testId="unhandled" />
      <Card className="vg-stat" data-card="notices">
        <div className="vg-stat-title">
          <span>{t`未读通知`}</span>
        </div>
        {noticeListAvailable() ? (
          <button type="button" className="vg-figure-link vg-stat-value vg-plain-button" data-figure="notices" onClick={openNoticeList}>
            {data.unreadNotices}
          </button>
        ) : (
          <span className="vg-stat-value" data-figure="notices">{data.unreadNotices}</span>
        )}
      </Card>
    </section>
  );
}

/** When the figures were taken, whether they are stale, and a refresh. */
function Freshness({ at, loading, stale, onRefresh }: { at?: string; loading: boolean; stale: boolean; onRefresh(): void }) {
  const { t } = useLingui();
  return (
    <span className="vg-home-fresh">
      {stale && <Tag intent="warning" minimal>{t`数据未能更新`}</Tag>}
      {at && <span data-testid="home-at">{t`更新于 ${at}`}</span>}
      {loading ? <Spinner size={16} /> : <Button variant="minimal" icon="refresh" title={t`刷新`} aria-label={t`刷新`} onClick={onRefresh} />}
    </span>
  );
}

/**
 * /wel/index — the home (首页): the signed-in user's overview within their data scope and projects, kept live by
 * `stats.changed` over the console's socket with a poll behind it. Every figure leads to the list it counts.
 */
export default function HomePage() {
  const userId = useSelector(sessionActor, (s) => s.context.user?.userId);
  // A third-party guest still registering holds no rights: the registration dialog covers the page, and the home's
  // calls would answer 401 and sign the guest out from under it.
  return userId && !needsRegistration(userId) ? <Overview /> : <div className="vg-page vg-home" />;
}

function Overview() {
  const { t } = useLingui();
  const nickName = useSelector(sessionActor, (s) => s.context.user?.nickName ?? '');
  const [projectId, setProjectId] = useState<string>();
  const [refreshes] = useState(() => new Subject<void>());
  const refresh$ = useMemo(() => merge(refreshes, noticeMarks$), [refreshes]);
  const figures = useLiveStats(() => indexData(projectId), projectId ?? '', refresh$);
  const { entries, held, board } = useHeldMenus();
  const scope: Scope = { projectId };
  const { data } = figures;

  return (
    <div className="vg-page vg-home">
      <header className="vg-home-head">
        <h2>{t`您好,${nickName}`}</h2>
        <span className="vg-spacer" />
        <ProjectFilter value={projectId} onChange={setProjectId} />
        <Freshness at={data?.at} loading={figures.loading} stale={figures.stale} onRefresh={() => refreshes.next()} />
        {board && <Button icon="dashboard" intent="primary" text={t`数据看板`} className="vg-home-board" onClick={() => navigate(BOARD_PATH)} />}
      </header>
      {!data && !figures.loading ? (
        <NonIdealState icon="error" title={t`加载失败`} action={<Button icon="refresh" text={t`重试`} onClick={() => refreshes.next()} />} />
      ) : (
        <>
          {data ? <Figures data={data} scope={scope} held={held} /> : <section className="vg-home-stats"><StatSkeletons count={6} /></section>}
          <section className="vg-home-grid">
            {data ? <OpenAlarms data={data} scope={scope} held={held} /> : <StatSkeletons count={1} />}
            {data ? <LatestAlarms alarms={data.latestAlarms} scope={scope} held={held} /> : <StatSkeletons count={1} />}
            <QuickEntries entries={entries} />
          </section>
        </>
      )}
    </div>
  );
}
