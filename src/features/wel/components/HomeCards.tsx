import { Card, Classes, Icon, ProgressBar, Tag } from '@blueprintjs/core';
import type { IconName } from '@blueprintjs/icons';
import { useLingui } from '@lingui/react/macro';
import type { CSSProperties, ReactNode } from 'react';
import type { AlarmLine, IndexData, PresenceCounts } from '../../../../resources/wire/statistics';
import { formatReading } from '../../../../resources/readings';
import { ALARM_LEVELS, isAlarmLevel, LEVEL_COLOURS, LEVEL_NAMES } from '../../alarm/levels';
import { alarmLink, alarmsLink, type Presence, type Scope } from '../links';
import { FigureLink } from './FigureLink';

/** Keeps a link only when the user holds its list's screen (links.ts `heldOnly`). */
export type LinkIfHeld = (href: string) => string | undefined;

/** A figure with its title, big number and the parts below it. */
export function StatCard({ icon, title, to, value, testId, children }: { icon: IconName; title: string; to?: string; value: number; testId: string; children?: ReactNode }) {
  return (
    <Card className="vg-stat" data-card={testId}>
      <div className="vg-stat-title">
        <Icon icon={icon} />
        <span>{title}</span>
      </div>
      <FigureLink to={to} className="vg-stat-value" testId={testId}>
        {value}
      </FigureLink>
      {children}
    </Card>
  );
}

/** Skeleton cards while the first figures load. */
export function StatSkeletons({ count }: { count: number }) {
  return (
    <>
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
        <Card key={i} className={`vg-stat ${Classes.SKELETON}`} />
      ))}
    </>
  );
}

/** The share online, 0…1, or undefined when there is nothing to share. */
export const onlineShare = (counts: PresenceCounts): number | undefined => (counts.total > 0 ? counts.online / counts.total : undefined);

/** Devices or gateways: total, online / offline / never seen, and the share online. */
export function PresenceCard({ icon, title, counts, testId, linkOf }: { icon: IconName; title: string; counts: PresenceCounts; testId: string; linkOf(presence?: Presence): string | undefined }) {
  const { t } = useLingui();
  const share = onlineShare(counts);
  const part = (presence: Presence, label: string, count: number, intent: 'success' | 'none' | 'warning') => (
    <FigureLink to={linkOf(presence)} testId={`${testId}.${presence}`} className="vg-stat-part">
      <Tag minimal intent={intent} round>
        {label} <b>{count}</b>
      </Tag>
    </FigureLink>
  );
  return (
    <StatCard icon={icon} title={title} to={linkOf()} value={counts.total} testId={`${testId}.total`}>
      <div className="vg-stat-parts">
        {part('online', t`在线`, counts.online, 'success')}
        {part('offline', t`离线`, counts.offline, 'none')}
        {part('never', t`从未上线`, counts.never, 'warning')}
      </div>
      <div className="vg-stat-rate">
        <ProgressBar value={share ?? 0} intent="success" stripes={false} animate={false} />
        <span>{share === undefined ? '—' : t`在线率 ${Math.round(share * 100)}%`}</span>
      </div>
    </StatCard>
  );
}

/** Open alarms by level, in the four colours, and those nobody handled yet. */
export function OpenAlarms({ data, scope, held }: { data: IndexData; scope: Scope; held: LinkIfHeld }) {
  const { t, i18n } = useLingui();
  const total = ALARM_LEVELS.reduce((sum, level) => sum + data.openAlarms[level], 0);
  return (
    <Card className="vg-home-alarms">
      <div className="vg-card-head">
        <h3>{t`未恢复告警`}</h3>
        <FigureLink to={held(alarmsLink({ open: true }, scope))} testId="alarms.open">
          {t`共 ${total} 条`}
        </FigureLink>
      </div>
      <div className="vg-level-tiles">
        {ALARM_LEVELS.map((level) => (
          <FigureLink key={level} to={held(alarmsLink({ level, open: true }, scope))} testId={`alarms.level${level}`} className="vg-level-tile">
            <span className="vg-level-tile-bar" style={{ '--level-colour': LEVEL_COLOURS[level] } as CSSProperties} />
            <span className="vg-level-tile-name">{i18n._(LEVEL_NAMES[level])}</span>
            <b>{data.openAlarms[level]}</b>
          </FigureLink>
        ))}
      </div>
      <FigureLink to={held(alarmsLink({ unhandled: true }, scope))} testId="alarms.unhandled" className="vg-home-unhandled">
        <Icon icon="warning-sign" intent={data.unhandledAlarms > 0 ? 'danger' : 'none'} />
        <span>{t`未处理`}</span>
        <b>{data.unhandledAlarms}</b>
      </FigureLink>
    </Card>
  );
}

function AlarmRow({ alarm, held }: { alarm: AlarmLine; held: LinkIfHeld }) {
  const { t, i18n } = useLingui();
  const level = isAlarmLevel(alarm.alarmLevel) ? alarm.alarmLevel : undefined;
  const where = [alarm.deviceName ?? alarm.deviceId, alarm.pointKey].filter(Boolean).join(' · ');
  return (
    <li className="vg-latest-alarm" data-alarm={alarm.id}>
      <span className="vg-level-dot" style={{ background: level ? LEVEL_COLOURS[level] : undefined }} title={level ? i18n._(LEVEL_NAMES[level]) : undefined} />
      <div className="vg-latest-alarm-main">
        <FigureLink to={held(alarmLink(alarm.id))} className="vg-latest-alarm-title">
          {alarm.title || where}
        </FigureLink>
        <span className="vg-latest-alarm-where">
          {[alarm.projectName, where].filter(Boolean).join(' / ')} · {formatReading(alarm.value, null, alarm.unit)}
        </span>
      </div>
      <div className="vg-latest-alarm-side">
        <Tag minimal intent={alarm.alarmState === 1 ? 'danger' : 'success'}>{alarm.alarmState === 1 ? t`告警中` : t`已恢复`}</Tag>
        <time>{alarm.levelTime ?? ''}</time>
      </div>
    </li>
  );
}

/** The ten latest alarm changes, each leading to its alarm. */
export function LatestAlarms({ alarms, scope, held }: { alarms: AlarmLine[]; scope: Scope; held: LinkIfHeld }) {
  const { t } = useLingui();
  return (
    <Card className="vg-home-latest">
      <div className="vg-card-head">
        <h3>{t`最新告警`}</h3>
        <FigureLink to={held(alarmsLink({}, scope))}>{t`全部告警`}</FigureLink>
      </div>
      {alarms.length === 0 ? (
        <p className="vg-home-empty">{t`暂无告警`}</p>
      ) : (
        <ul className="vg-latest-alarms">
          {alarms.map((alarm) => (
            <AlarmRow key={alarm.id} alarm={alarm} held={held} />
          ))}
        </ul>
      )}
    </Card>
  );
}
