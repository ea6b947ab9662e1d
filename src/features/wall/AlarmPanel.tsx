import { useLingui } from '@lingui/react/macro';
import { memo } from 'react';
import { formatReading } from '../../../resources/readings';
import type { AlarmLine } from '../../../resources/wire/statistics';
import { LEVEL_NAMES } from './levels';

/**
 * The open alarms of the link's projects, worst first, then newest. `latestRed` is the red alarm that arrived last:
 * its line flashes with the screen.
 */
export const AlarmPanel = memo(function AlarmPanel({ alarms, latestRed }: { alarms: readonly AlarmLine[]; latestRed?: string }) {
  const { t, i18n } = useLingui();
  if (alarms.length === 0) return <div className="vg-wall-empty is-calm">{t`暂无告警`}</div>;
  return (
    <ol className="vg-wall-alarms">
      {alarms.map((alarm) => (
        <li key={alarm.id} className={`vg-wall-alarm is-level-${alarm.alarmLevel}${alarm.id === latestRed ? ' is-new' : ''}`} data-alarm={alarm.id}>
          <span className="vg-wall-alarm-level">{LEVEL_NAMES[alarm.alarmLevel] ? i18n._(LEVEL_NAMES[alarm.alarmLevel]) : alarm.alarmLevel}</span>
          <div className="vg-wall-alarm-body">
            <div className="vg-wall-alarm-title">{alarm.title ?? alarm.deviceName ?? alarm.deviceId}</div>
            <div className="vg-wall-alarm-where">
              {[alarm.projectName, alarm.deviceName, alarm.pointKey].filter(Boolean).join(' · ')}
              {alarm.value !== null && <b> {formatReading(alarm.value, null, alarm.unit)}</b>}
              {alarm.handleState === 1 && <em> {t`已处理`}</em>}
            </div>
          </div>
          <time className="vg-wall-alarm-time">{alarm.levelTime?.slice(5, 16) ?? ''}</time>
        </li>
      ))}
    </ol>
  );
});
