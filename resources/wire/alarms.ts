/** The socket event that brings a user their alarm changes at once (server/alarms/channels.ts, streams/alarms.ts). */
export const ALARM_EVENT = 'alarm';

/** What every channel says about an alarm change (notice, e-mail, SMS, webhook). */
export interface AlarmMessage {
  alarmId: string;
  tenantId: string;
  projectId: string | null;
  deviceId: string;
  deviceCode: string | null;
  pointKey: string | null;
  alarmLevel: number;
  levelName: string;
  alarmType: number;
  alarmState: number;
  title: string;
  content: string;
  value: number | null;
  limitValue: number | null;
  unit: string | null;
  /** Epoch ms of the reading that caused the change (the console measures alarm latency from it). */
  ts: number | null;
  time: string;
  revision: number;
  /** 0 the change itself, 1… reminders. */
  round: number;
  href: string;
}

/** The payload of the `alarm` socket event: the message and the desk notice it was published as. */
export interface LiveAlarm extends AlarmMessage {
  noticeId: string;
}
