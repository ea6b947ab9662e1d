import { useLingui } from '@lingui/react/macro';
import { memo, useMemo } from 'react';
import { displayUnit, formatValue } from '../../../resources/readings';
import type { ChannelView, PointView, ProjectView } from '../../../streams/screenSnapshot';
import { Age } from './Age';
import { changeOf } from './format';
import { statusClass, worstFirst } from './levels';
import { PageMark } from './PageMark';
import { useChannel, usePaged } from './wallPaging';
import type { WallRuntime } from './wallRuntime';

const ARROWS = { up: '▲', down: '▼', flat: '■' } as const;

interface Tile {
  point: PointView;
  channel: ChannelView;
}

/** A channel's tile: it reads its live value itself, so a reading renders this tile only. */
const ChannelTile = memo(function ChannelTile({ runtime, point, channel }: { runtime: WallRuntime; point: PointView; channel: ChannelView }) {
  const live = useChannel(runtime, channel.deviceId, channel.pointKey);
  const change = changeOf(live.value, live.previous, channel.precision);
  return (
    <div className={`vg-wall-value ${statusClass(channel.level, point.online)}`} data-channel={`${channel.deviceId}:${channel.pointKey}`}>
      <div className="vg-wall-value-name">
        {point.name} · {channel.name}
      </div>
      <div className="vg-wall-value-number">
        <b>{formatValue(live.value, channel.precision)}</b> <small>{displayUnit(channel.unit)}</small>
      </div>
      <div className="vg-wall-value-foot">
        {change ? (
          <span className={`vg-wall-change is-${change.direction}`}>
            {ARROWS[change.direction]} {change.text}
          </span>
        ) : (
          <span />
        )}
        <Age ts={live.ts} />
      </div>
    </div>
  );
});

/**
 * The tiles in the order an operator across the room needs them: channels in alarm first (worst level first), then
 * the others in the project's order. Offline points keep their place (their tiles are grey): devices come online one
 * by one after a restart, and a page order following them would shuffle under the operator's eyes.
 */
export function tileOrder(points: readonly PointView[]): Tile[] {
  const tiles = points.flatMap((point) => point.channels.map((channel) => ({ point, channel })));
  return worstFirst(tiles, ({ channel }) => channel.level);
}

/** The latest value of the project's channels, with their change from the one before and their age, a page at a time. */
export const ValuesPanel = memo(function ValuesPanel({ runtime, project }: { runtime: WallRuntime; project: ProjectView }) {
  const { t } = useLingui();
  const tiles = useMemo(() => tileOrder(project.points), [project.points]);
  const { ref, shown, page, pages } = usePaged(tiles);
  if (tiles.length === 0) return <div className="vg-wall-empty">{t`暂无数据`}</div>;
  return (
    <>
      <div className="vg-wall-values" ref={ref}>
        {shown.map(({ point, channel }, slot) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: keyed by place, a turned page updates its tiles in place (no page of tiles unmounted and mounted)
          <ChannelTile key={slot} runtime={runtime} point={point} channel={channel} />
        ))}
      </div>
      <PageMark page={page} pages={pages} />
    </>
  );
});
