import { i18n, type MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { OverlayToaster, type Toaster } from '@blueprintjs/core';
import type { LiveAlarm } from '../../../resources/wire/alarms';
import { navigate } from '../../app/navigation';

let toaster: Promise<Toaster> | undefined;

/** Level names in the user's language (the message's levelName is the server's Chinese). */
const LEVELS: Record<number, MessageDescriptor> = { 1: msg`红色`, 2: msg`橙色`, 3: msg`黄色`, 4: msg`蓝色` };

/** The screen of one alarm (the server's href, else the alarm list filtered to it). */
export const alarmHref = (alarm: LiveAlarm): string => alarm.href || `/xinde/alarm?id=${encodeURIComponent(alarm.alarmId)}`;

/** What the toast reads: the monitor point or device, the value with its unit, the level. */
function AlarmToastBody({ alarm }: { alarm: LiveAlarm }) {
  const where = alarm.pointKey ? `${alarm.deviceCode ?? alarm.deviceId} / ${alarm.pointKey}` : (alarm.deviceCode ?? alarm.deviceId);
  const value = alarm.value === null ? '—' : `${alarm.value}${alarm.unit ?? ''}`;
  return (
    <div className={`vg-alarm-toast vg-alarm-toast-${alarm.alarmLevel}`} data-alarm-id={alarm.alarmId}>
      <div className="vg-alarm-toast-title">
        <span className={`vg-notice-level vg-notice-level-${alarm.alarmLevel}`} />
        <strong>{alarm.title}</strong>
      </div>
      <div className="vg-alarm-toast-line">
        {i18n._(msg`位置`)}: {where}
      </div>
      <div className="vg-alarm-toast-line">
        {i18n._(msg`数值`)}: {value} · {i18n._(msg`级别`)}: {LEVELS[alarm.alarmLevel] ? i18n._(LEVELS[alarm.alarmLevel]) : alarm.levelName}
      </div>
    </div>
  );
}

/**
 * A red or orange alarm the operator cannot miss: it stays until opened or closed (at most five at once, the
 * oldest goes first), coloured by its level; 查看 opens the alarm. Bottom right, so it never covers the bell.
 */
export function showAlarmToast(alarm: LiveAlarm): void {
  toaster ??= OverlayToaster.create({ position: 'bottom-right', maxToasts: 5, className: 'vg-alarm-toaster' });
  void toaster.then((t) =>
    t.show(
      {
        message: <AlarmToastBody alarm={alarm} />,
        intent: alarm.alarmLevel === 1 ? 'danger' : 'warning',
        timeout: 0,
        action: { text: i18n._(msg`查看`), className: 'vg-alarm-toast-open', onClick: () => navigate(alarmHref(alarm)) },
      },
      `alarm-${alarm.alarmId}`,
    ),
  );
}
