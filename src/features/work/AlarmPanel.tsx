import { NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { isAlarmLevel, LEVEL_COLOURS, LEVEL_NAMES } from '../alarm/levels';
import { type AlarmRow, alarmDetail } from './api';
import { Facts } from './Facts';

const reading = (value: AlarmRow['value'], unit: AlarmRow['unit']) => (value === null || value === undefined || value === '' ? '' : `${value}${unit ? ` ${unit}` : ''}`);

/** The alarm a disposal process is about (wit-xinde/alarm/detail): what, where, how severe, which value, when. */
export function AlarmPanel({ businessId }: { businessId: string }) {
  const { t, i18n } = useLingui();
  const [alarm, setAlarm] = useState<AlarmRow>();
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    let live = true;
    alarmDetail(businessId).then(
      (found) => live && setAlarm(found),
      (error: unknown) => live && setProblem(error instanceof Error ? error.message : String(error)),
    );
    return () => {
      live = false;
    };
  }, [businessId]);

  if (problem) return <NonIdealState icon="error" title={t`告警加载失败`} description={problem} />;
  if (!alarm) return <Spinner size={20} />;
  const level = Number(alarm.alarmLevel);
  return (
    <Facts
      items={[
        { name: 'title', label: t`告警标题`, value: alarm.title, wide: true },
        { name: 'device', label: t`设备`, value: alarm.deviceName ?? alarm.deviceCode },
        { name: 'project', label: t`所属项目`, value: alarm.projectName },
        {
          name: 'level',
          label: t`告警等级`,
          value: isAlarmLevel(level) ? (
            <Tag round style={{ background: LEVEL_COLOURS[level], color: '#fff' }}>
              {i18n._(LEVEL_NAMES[level])}
            </Tag>
          ) : (
            String(alarm.alarmLevel ?? '')
          ),
        },
        { name: 'point', label: t`点位`, value: alarm.pointKey },
        { name: 'value', label: t`告警值`, value: reading(alarm.value, alarm.unit) },
        { name: 'limit', label: t`阈值`, value: reading(alarm.limitValue, alarm.unit) },
        { name: 'firstTime', label: t`告警时间`, value: alarm.firstTime },
        { name: 'levelTime', label: t`等级变化时间`, value: alarm.levelTime },
        { name: 'clearTime', label: t`恢复时间`, value: alarm.clearTime },
        { name: 'content', label: t`告警内容`, value: alarm.content, wide: true },
      ]}
    />
  );
}
