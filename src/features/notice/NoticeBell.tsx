import { Button, PopoverNext, Switch, Tab, Tabs } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import { fromPromise } from 'xstate';
import { bellBadge, type Notice, type NoticeSummary, type NoticeTab, noticeCentreMachine } from '../../../machines/noticeCentre';
import { alarmEvents, alarmTransport } from '../../../streams/alarms';
import { navigate } from '../../app/navigation';
import { tabsActor } from '../../app/shell';
import { leaseSocket } from '../../app/liveSocket';
import { getStore, setStore } from '../../app/storage';
import type { LiveAlarm } from '../../../resources/wire/alarms';
import { showAlarmToast } from './alarmToast';
import { noticeSummary, saveSound } from './api';
import { type NoticeFilter, NoticeDialog } from './NoticeDialog';
import { noticesMarked, onNoticeListRequest } from './noticeRequests';
import { playAlarmSound } from './sound';
import './notice.css';

const TAB_STORE = 'noticeTab';

/** The notice centre's actor: the summary from getNoticeInfo, live alarms over socket.io, reloads on tab changes. */
function useNoticeCentre() {
  const centre = useActorRef(
    noticeCentreMachine.provide({
      actors: { load: fromPromise<NoticeSummary>(() => noticeSummary()) },
      actions: {
        persist: ({ context }) => setStore(TAB_STORE, context.tab),
        playSound: playAlarmSound,
        showAlarm: (_, alarm: LiveAlarm) => showAlarmToast(alarm),
        saveSound: (_, on: boolean) => void saveSound(on).catch(() => undefined),
      },
    }),
    { input: { chosen: getStore<NoticeTab>(TAB_STORE) } },
  );

  useEffect(() => {
    let active = tabsActor.getSnapshot().context.active;
    const subscription = tabsActor.subscribe((snapshot) => {
      if (snapshot.context.active === active) return;
      active = snapshot.context.active;
      centre.send({ type: 'notice.refresh' });
    });
    return () => subscription.unsubscribe();
  }, [centre]);

  useEffect(() => {
    const lease = leaseSocket();
    const subscription = alarmEvents(alarmTransport(lease.socket)).subscribe((event) =>
      centre.send(event.type === 'alarm' ? { type: 'notice.alarm', alarm: event.alarm } : { type: 'notice.refresh' }),
    );
    return () => {
      subscription.unsubscribe();
      lease.release();
    };
  }, [centre]);

  return centre;
}

function NoticeItem({ notice, alarm, onOpen }: { notice: Notice; alarm: boolean; onOpen(): void }) {
  return (
    <div className="vg-notice-item" role="button" tabIndex={0} onClick={onOpen} onKeyDown={(e) => e.key === 'Enter' && onOpen()} title={notice.title}>
      {alarm && <span className={`vg-notice-level vg-notice-level-${notice.alarmType ?? 4}`} />}
      <span className="vg-notice-title">{notice.title}</span>
      <span className="vg-notice-time">{String(notice.releaseTime ?? '').slice(5, 16)}</span>
    </div>
  );
}

/** The bell of the top bar (spec §2 "Notice centre"): badge, popover with alarm and station tabs, the notice dialog. */
export function NoticeBell() {
  const { t } = useLingui();
  const centre = useNoticeCentre();
  const { summary, tab, sound } = useSelector(centre, (s) => s.context);
  const [open, setOpen] = useState(false);
  const [dialog, setDialog] = useState<{ filter?: NoticeFilter }>();
  const badge = bellBadge(summary);
  useEffect(() => onNoticeListRequest(() => setDialog({})), []);

  const openAlarm = (notice: Notice) => {
    setOpen(false);
    if (notice.href) navigate(notice.href);
  };
  const openStation = (notice: Notice) => {
    setOpen(false);
    setDialog({ filter: { title: notice.title, id: notice.id } });
  };
  const list = (notices: Notice[], alarm: boolean) =>
    notices.length === 0 ? (
      <div className="vg-notice-empty">{alarm ? t`暂无告警` : t`暂无通知`}</div>
    ) : (
      notices.map((n) => <NoticeItem key={n.id} notice={n} alarm={alarm} onOpen={() => (alarm ? openAlarm(n) : openStation(n))} />)
    );

  const content = (
    <div className="vg-notice-popover" data-testid="notice-popover">
      <Tabs id="notice-tabs" renderActiveTabPanelOnly selectedTabId={tab} onChange={(id) => centre.send({ type: 'notice.chooseTab', tab: id as NoticeTab })}>
        <Tab id="alarm" title={t`告警信息`} panel={<div className="vg-notice-scroll">{list(summary.alarmNotices, true)}</div>} />
        <Tab id="station" title={t`站内通知`} panel={<div className="vg-notice-scroll">{list(summary.stationNotices, false)}</div>} />
      </Tabs>
      <div className="vg-notice-foot">
        <Switch className="vg-notice-sound" checked={sound} label={t`告警提示音`} onChange={(e) => centre.send({ type: 'notice.sound', on: e.currentTarget.checked })} />
        <Button variant="minimal" size="small" text={t`查看全部通知`} className="vg-notice-all" onClick={() => { setOpen(false); setDialog({}); }} />
      </div>
    </div>
  );

  return (
    <>
      <PopoverNext content={content} placement="bottom-end" isOpen={open} onInteraction={(next) => { setOpen(next); if (next) centre.send({ type: 'notice.refresh' }); }}>
        <span className="vg-badge">
          <Button variant="minimal" icon="notifications" aria-label={t`通知`} title={t`通知`} className="vg-notice-bell" />
          {badge?.kind === 'count' && <span className="vg-badge-count" data-testid="notice-badge">{badge.text}</span>}
          {badge?.kind === 'dot' && <span className="vg-badge-dot" data-testid="notice-dot" />}
        </span>
      </PopoverNext>
      <NoticeDialog
        isOpen={!!dialog}
        filter={dialog?.filter}
        onClose={() => setDialog(undefined)}
        onChanged={() => {
          centre.send({ type: 'notice.refresh' });
          noticesMarked();
        }}
      />
    </>
  );
}
