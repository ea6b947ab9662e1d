import { useLingui } from '@lingui/react/macro';
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { formatReading } from '../../../resources/readings';
import type { ChannelView, PointView, ProjectView } from '../../../streams/screenSnapshot';
import { pointLevel } from '../../../streams/screenState';
import { containRect } from './format';
import { statusClass, worstFirst } from './levels';
import { PageMark } from './PageMark';
import { useProjectImage } from './wallHooks';
import { useChannel, usePaged } from './wallPaging';
import type { WallRuntime } from './wallRuntime';

/** A channel's live value with its unit (the tile reads it itself: a reading renders it alone). */
function LiveReading({ runtime, channel }: { runtime: WallRuntime; channel: ChannelView }) {
  const live = useChannel(runtime, channel.deviceId, channel.pointKey);
  return <b>{formatReading(live.value, channel.precision, channel.unit)}</b>;
}

/** The first channel's latest value, as a point's marker shows it. */
function Headline({ runtime, point }: { runtime: WallRuntime; point: PointView }) {
  const first = point.channels[0];
  return first ? <LiveReading runtime={runtime} channel={first} /> : <b>—</b>;
}

const PointMarker = memo(function PointMarker({ runtime, point }: { runtime: WallRuntime; point: PointView }) {
  const level = pointLevel(point);
  return (
    <div className={`vg-wall-marker ${statusClass(level, point.online)}`} style={{ left: `${(point.x ?? 0) * 100}%`, top: `${(point.y ?? 0) * 100}%` }} data-point={point.id}>
      <span className="vg-wall-dot" />
      <span className="vg-wall-marker-label">
        {point.name} <Headline runtime={runtime} point={point} />
      </span>
    </div>
  );
});

/** A point as a tile of the plain grid: its status colour, name and first values. */
const PointTile = memo(function PointTile({ runtime, point }: { runtime: WallRuntime; point: PointView }) {
  const { t } = useLingui();
  const level = pointLevel(point);
  return (
    <div className={`vg-wall-tile ${statusClass(level, point.online)}`} data-point={point.id}>
      <div className="vg-wall-tile-name">
        <span className="vg-wall-dot" /> {point.name}
        {!point.online && <small className="vg-wall-offline">{t`离线`}</small>}
      </div>
      {point.channels.slice(0, 2).map((c, slot) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: keyed by place, as the tiles
        <div key={slot} className="vg-wall-tile-value">
          <span>{c.name}</span> <LiveReading runtime={runtime} channel={c} />
        </div>
      ))}
    </div>
  );
});

/** The image fitted whole into the panel, with the placed points at their fractions of it. */
function ImageWithPoints({ runtime, url, points }: { runtime: WallRuntime; url: string; points: readonly PointView[] }) {
  const box = useRef<HTMLDivElement>(null);
  const [natural, setNatural] = useState<{ width: number; height: number }>();
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const element = box.current;
    if (!element || !natural) return;
    const place = () => setSize(containRect(element.clientWidth, element.clientHeight, natural.width, natural.height));
    place();
    const observer = new ResizeObserver(place);
    observer.observe(element);
    return () => observer.disconnect();
  }, [natural]);
  return (
    <div className="vg-wall-image-box" ref={box}>
      <div className="vg-wall-image" style={natural ? { width: size.width, height: size.height } : undefined}>
        <img src={url} alt="" onLoad={(e) => setNatural({ width: e.currentTarget.naturalWidth, height: e.currentTarget.naturalHeight })} />
        {natural && points.map((p) => <PointMarker key={p.id} runtime={runtime} point={p} />)}
      </div>
    </div>
  );
}

/** Points in alarm first (worst first), then the others in the project's order (as ValuesPanel.tsx tileOrder). */
export function pointOrder(points: readonly PointView[]): PointView[] {
  return worstFirst(points, pointLevel);
}

/**
 * The project's structure: its image with the monitor points at their places, coloured by their worst open alarm
 * (grey when their devices are offline); a plain grid when there is no image, and for the points not placed on it.
 */
export const StructurePanel = memo(function StructurePanel({ runtime, project }: { runtime: WallRuntime; project: ProjectView }) {
  const { t } = useLingui();
  const url = useProjectImage(runtime, project.image);
  // While the image loads its place stays empty; without one (or when it cannot be had) every point is in the grid.
  const withImage = url !== null;
  const placed = useMemo(() => project.points.filter((p) => p.x !== null && p.y !== null), [project.points]);
  const loose = useMemo(() => pointOrder(withImage ? project.points.filter((p) => p.x === null || p.y === null) : project.points), [withImage, project.points]);
  const { ref, shown, page, pages } = usePaged(loose);
  return (
    <div className="vg-wall-structure">
      {withImage && (url ? <ImageWithPoints runtime={runtime} url={url} points={placed} /> : <div className="vg-wall-image-box" />)}
      {loose.length > 0 && (
        <div className={`vg-wall-loose${withImage ? ' is-aside' : ''}`}>
          {withImage && <div className="vg-wall-grid-title">{t`未放置的测点`}</div>}
          <div className={`vg-wall-grid${withImage ? ' is-aside' : ''}`} ref={ref}>
            {shown.map((p, slot) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: keyed by place, as ValuesPanel.tsx's tiles
              <PointTile key={slot} runtime={runtime} point={p} />
            ))}
          </div>
        </div>
      )}
      <PageMark page={page} pages={pages} />
      {project.points.length === 0 && <div className="vg-wall-empty">{t`暂无测点`}</div>}
    </div>
  );
});
