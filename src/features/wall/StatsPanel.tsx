import { useLingui } from '@lingui/react/macro';
import { memo } from 'react';
import type { ProjectView } from '../../../streams/screenSnapshot';
import { onlineRate, openTotal } from '../../../streams/screenState';
import { percent } from './format';
import { LEVEL_NAMES, LEVELS } from './levels';
import { usePointsToday } from './wallPaging';
import type { WallRuntime } from './wallRuntime';

/** The shown project's figures: devices online, data points stored today, open alarms by level. */
export const StatsPanel = memo(function StatsPanel({ runtime, project }: { runtime: WallRuntime; project: ProjectView }) {
  const { t, i18n } = useLingui();
  const { online, total } = project.devices;
  // Live: it grows with every reading (streams/screenChannels.ts), without a new project object.
  const pointsToday = usePointsToday(runtime, project.id);
  return (
    <div className="vg-wall-stats">
      <div className="vg-wall-stat">
        <div className="vg-wall-stat-label">{t`在线率`}</div>
        <div className="vg-wall-stat-value" data-stat="online">
          {percent(onlineRate(project.devices))}
        </div>
        <div className="vg-wall-stat-note">{t`设备 ${online}/${total} 在线`}</div>
      </div>
      <div className="vg-wall-stat">
        <div className="vg-wall-stat-label">{t`今日数据`}</div>
        <div className="vg-wall-stat-value" data-stat="today">
          {pointsToday.toLocaleString(i18n.locale === 'en' ? 'en' : 'zh-CN')}
        </div>
        <div className="vg-wall-stat-note">{t`开放告警 ${openTotal(project.openAlarms)} 条`}</div>
      </div>
      <div className="vg-wall-levels">
        {LEVELS.map((level) => (
          <div key={level} className={`vg-wall-level is-level-${level}`} data-level={level}>
            <b>{project.openAlarms[String(level) as '1']}</b>
            <span>{i18n._(LEVEL_NAMES[level])}</span>
          </div>
        ))}
      </div>
    </div>
  );
});
