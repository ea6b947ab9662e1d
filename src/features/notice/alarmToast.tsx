import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { OverlayToaster, type Toaster } from '@blueprintjs/core';
import type { LiveAlarm } from '../../../resources/wire/alarms';
import { navigate } from '../../app/navigation';
import { isAlarmLevel, LEVEL_NAMES } from '../alarm/levels';

let toaster: Promise<Toaster> | undefined;


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
        {i18n._(msg`数值`)}: {value} · {i18n._(msg`级别`)}: {isAlarmLevel(alarm.alarmLevel) ? i18n._(LEVEL_NAMES[alarm.alarmLevel]) : alarm.levelName}
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
