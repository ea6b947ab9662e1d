import type { LiveAlarm } from '../../resources/wire/alarms';

/** A live `alarm` event as the server sends it, with the fields a test cares about given. */
export function liveAlarm(alarmId: string, fields: Partial<LiveAlarm> = {}): LiveAlarm {
  return {
    alarmId,
    tenantId: '100001',
    projectId: null,
    deviceId: 'device-1',
    deviceCode: 'DEV-1',
    pointKey: 'tilt_x',
    alarmLevel: 1,
    levelName: '一级',
    alarmType: 1,
    alarmState: 0,
    title: `alarm ${alarmId}`,
    content: '',
    value: null,
    limitValue: null,
    unit: null,
    ts: null,
    time: '2026-01-01 00:00:00',
    revision: 1,
    round: 0,
    href: `/xinde/alarm?id=${alarmId}`,
    noticeId: `notice-${alarmId}`,
    ...fields,
  };
}
