import type { AlarmLine, LevelCounts } from '../../../../resources/wire/statistics';

/** The alarm columns an alarm line shows (wit_alarm), as the repository or a background read returns them. */
export interface AlarmColumns {
  id: string;
  projectId: string | null;
  deviceId: string;
  pointKey: string | null;
  alarmLevel: number;
  alarmState: number | null;
  handleState: number | null;
  title: string | null;
  value: number | null;
  unit: string | null;
  levelTime: string | null;
}

export const ALARM_COLUMNS = ['id', 'projectId', 'deviceId', 'pointKey', 'alarmLevel', 'alarmState', 'handleState', 'title', 'value', 'unit', 'levelTime'] as const;

/** An alarm as the home and the wall screen list it, with the names of its project and device. */
export function alarmLineOf(row: AlarmColumns, projectNames: ReadonlyMap<string, string>, deviceNames: ReadonlyMap<string, string>): AlarmLine {
  return {
    id: row.id,
    projectId: row.projectId,
    projectName: row.projectId ? (projectNames.get(row.projectId) ?? null) : null,
    deviceId: row.deviceId,
    deviceName: deviceNames.get(row.deviceId) ?? null,
    pointKey: row.pointKey,
    alarmLevel: Number(row.alarmLevel),
    alarmState: Number(row.alarmState ?? 1),
    handleState: Number(row.handleState ?? 0),
    title: row.title,
    value: row.value === null ? null : Number(row.value),
    unit: row.unit,
    levelTime: row.levelTime,
  };
}

/** Counts by level '1'…'4' of the alarms given. */
export function levelCounts(levels: Iterable<number>): LevelCounts {
  const counts: LevelCounts = { '1': 0, '2': 0, '3': 0, '4': 0 };
  for (const level of levels) {
    const key = String(level);
    if (key === '1' || key === '2' || key === '3' || key === '4') counts[key] += 1;
  }
  return counts;
}
