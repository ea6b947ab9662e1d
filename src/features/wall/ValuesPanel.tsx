import { useLingui } from '@lingui/react/macro';
import { memo } from 'react';
import { displayUnit, formatValue } from '../../../resources/readings';
import type { ScreenChannel, ScreenPoint, ScreenProject } from '../../../resources/wire/screen';
import { Age } from './Age';
import { changeOf } from './format';
import { statusClass } from './levels';

const ARROWS = { up: '▲', down: '▼', flat: '■' } as const;

function ChannelTile({ point, channel }: { point: ScreenPoint; channel: ScreenChannel }) {
  const change = changeOf(channel.value, channel.previous, channel.precision);
  return (
    <div className={`vg-wall-value ${statusClass(channel.level, point.online)}`} data-channel={`${channel.deviceId}:${channel.pointKey}`}>
      <div className="vg-wall-value-name">
        {point.name} · {channel.name}
      </div>
      <div className="vg-wall-value-number">
        <b>{formatValue(channel.value, channel.precision)}</b> <small>{displayUnit(channel.unit)}</small>
      </div>
      <div className="vg-wall-value-foot">
        {change ? (
          <span className={`vg-wall-change is-${change.direction}`}>
            {ARROWS[change.direction]} {change.text}
          </span>
        ) : (
          <span />
        )}
        <Age ts={channel.ts} />
      </div>
    </div>
  );
}

/** The latest value of every channel of the project, with its change from the one before and its age. */
export const ValuesPanel = memo(function ValuesPanel({ project }: { project: ScreenProject }) {
  const { t } = useLingui();
  const tiles = project.points.flatMap((point) => point.channels.map((channel) => ({ point, channel })));
  if (tiles.length === 0) return <div className="vg-wall-empty">{t`暂无数据`}</div>;
  return (
    <div className="vg-wall-values">
      {tiles.map(({ point, channel }) => (
        <ChannelTile key={`${point.id}:${channel.deviceId}:${channel.pointKey}`} point={point} channel={channel} />
      ))}
    </div>
  );
});
