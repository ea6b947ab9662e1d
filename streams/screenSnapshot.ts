import type { ScreenChannel, ScreenData, ScreenPoint, ScreenProject } from '../resources/wire/screen';

/**
 * A wall screen's snapshot, taken apart where it is fetched and decoded and put together where it is shown
 * (docs/console-screens.md "The snapshot off the main thread"). A project of 2,000 devices × 10 values answers 3 MB:
 * decoding and parsing it on the page, then rendering every tile again because every object is new, blocked the page
 * for 300 ms. So a worker fetches and decodes it (`loadSnapshot`, `splitSnapshot`) into
 * - the projects' shapes (what only an administrator changes: points, their places, channels, names, units), each
 *   sent only when the page does not have it already — else only the points whose presence or levels differ from the
 *   page's (the page sends its shapes' hashes, levels and presence with the request);
 * - typed arrays, transferred without a copy: every channel's value, previous value and time, its alarm level, and
 *   every point's presence;
 * and the page (`joinSnapshot`) puts them together, keeping every point that did not change: the tiles of those do
 * not render again. The values go to the live channels (streams/screenChannels.ts), not into the screen's state,
 * whose channels carry none.
 */

export type ChannelView = Omit<ScreenChannel, 'value' | 'previous' | 'ts'>;
export type PointView = Omit<ScreenPoint, 'channels'> & { channels: ChannelView[] };
/** A project as the page keeps it; `shape`: the hash of its points' shape (their channels, in order, depend on it only). */
export type ProjectView = Omit<ScreenProject, 'points'> & { points: PointView[]; shape: string };
/** The screen's data as the page keeps it: the snapshot without its values. */
export type ScreenView = Omit<ScreenData, 'projects'> & { projects: ProjectView[] };

/**
 * The values of a view's channels, in the order of its projects, points and channels: value, previous value and time
 * (epoch ms) for each, NaN for none.
 */
export type ChannelValues = Float64Array<ArrayBuffer>;
export const VALUES_PER_CHANNEL = 3;

/** A snapshot as the page takes it. */
export interface SnapshotView {
  data: ScreenView;
  values: ChannelValues;
}

type ChannelShape = Omit<ChannelView, 'level'>;
type PointShape = Omit<PointView, 'online' | 'channels'> & { channels: ChannelShape[] };

/**
 * A project of a split snapshot: its figures, its shape's hash, and either the shape itself (the page does not have
 * it) or the points whose presence or channel levels differ from what the page has.
 */
export interface ProjectPart extends Omit<ScreenProject, 'points'> {
  shape: string;
  points?: PointShape[];
  /** Indexes of the points that changed since the page's, when the shape is the page's... */
  changed?: number[];
  /** ...since the page's join of this version of the project. */
  against?: number;
}

export interface SnapshotParts extends Omit<ScreenData, 'projects'> {
  projects: ProjectPart[];
  values: ChannelValues;
  /** Each channel's open alarm level, 0 for none. */
  levels: Int8Array<ArrayBuffer>;
  /** Each point's presence, 1 online. */
  online: Uint8Array<ArrayBuffer>;
}

/** What the page has of a project: its shape's hash, and its channels' levels and points' presence as joined. */
export interface KnownProject {
  shape: string;
  /** Counts the page's joins of the project: a snapshot compared with another than the page's last is compared again. */
  version: number;
  levels: Int8Array;
  online: Uint8Array;
}
export type KnownShapes = Readonly<Record<string, KnownProject>>;

const orNaN = (n: number | null) => (n === null ? Number.NaN : n);
/** A value of ChannelValues as a channel's value: NaN is none. */
export const orNull = (n: number): number | null => (Number.isNaN(n) ? null : n);

/** A 53-bit hash of a string (cyrb53): shapes are told apart by it, never trusted for anything else. */
export function hashOf(text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * The snapshot taken apart (in the worker): a shape the page has (`known`) is left out, and so are the points whose
 * presence and levels are the page's — the page then looks only at those that changed.
 */
export function splitSnapshot(data: ScreenData, known: KnownShapes): SnapshotParts {
  let channelCount = 0;
  let pointCount = 0;
  for (const project of data.projects) {
    pointCount += project.points.length;
    for (const point of project.points) channelCount += point.channels.length;
  }
  const values = new Float64Array(channelCount * VALUES_PER_CHANNEL);
  const levels = new Int8Array(channelCount);
  const online = new Uint8Array(pointCount);
  let c = 0;
  let p = 0;
  const projects = data.projects.map(({ points, ...figures }): ProjectPart => {
    const [firstPoint, firstChannel] = [p, c];
    const shapes = points.map(({ online: isOnline, channels, ...point }): PointShape => {
      online[p++] = isOnline ? 1 : 0;
      return {
        ...point,
        channels: channels.map(({ value, previous, ts, level, ...channel }) => {
          const at = c * VALUES_PER_CHANNEL;
          values[at] = orNaN(value);
          values[at + 1] = orNaN(previous);
          values[at + 2] = orNaN(ts);
          levels[c++] = level ?? 0;
          return channel;
        }),
      };
    });
    const shape = hashOf(JSON.stringify(shapes));
    const had = known[figures.id];
    if (had?.shape !== shape) return { ...figures, shape, points: shapes };
    return { ...figures, shape, changed: changedPoints(had, firstChannels(shapes), levels.subarray(firstChannel), online.subarray(firstPoint)), against: had.version };
  });
  return { link: data.link, alarms: data.alarms, at: data.at, projects, values, levels, online };
}

/**
 * What the page keeps of the snapshots it joined, by project: its view, and what the worker compares the next
 * snapshot with (the shape's hash, the levels and presence the view was joined with), and where each point's
 * channels start among the project's.
 */
export type JoinedShapes = Map<string, KnownProject & { project: ProjectView; firstChannel: Int32Array }>;

export const knownOf = (joined: JoinedShapes): KnownShapes =>
  Object.fromEntries([...joined].map(([id, { shape, version, levels, online }]) => [id, { shape, version, levels, online }]));

/**
 * The snapshot put together (on the page), from its parts and the projects joined before: a point whose presence and
 * channel levels did not change is the same object as before, and so is a project none of whose figures did.
 * Projects the snapshot no longer has are forgotten.
 */
export function joinSnapshot(parts: SnapshotParts, joined: JoinedShapes): SnapshotView {
  let p = 0;
  let c = 0;
  const projects = parts.projects.map(({ shape, points: shapes, changed, against, ...figures }): ProjectView => {
    const before = joined.get(figures.id);
    let points: PointView[];
    let firstChannel: Int32Array;
    if (shapes) {
      firstChannel = firstChannels(shapes);
      points = shapes.map((point, i) => pointWith(point, parts, p + i, c + firstChannel[i]));
    } else {
      if (!before || before.shape !== shape || !changed) throw new Error(`the snapshot left out the shape of project ${figures.id}, which the page does not have`);
      firstChannel = before.firstChannel;
      // Another snapshot was joined since this one was asked for (the probe's and the stream's may cross).
      if (against !== before.version) changed = changedPoints(before, firstChannel, parts.levels.subarray(c), parts.online.subarray(p));
      points = before.project.points;
      if (changed.length > 0) points = points.slice();
      for (const i of changed) points[i] = pointWith(points[i], parts, p + i, c + firstChannel[i]);
    }
    const channels = firstChannel[points.length];
    const project = points === before?.project.points && sameFigures(before.project, figures) ? before.project : { ...figures, points, shape };
    const version = (before?.version ?? 0) + 1;
    joined.set(figures.id, { shape, version, project, firstChannel, levels: parts.levels.slice(c, c + channels), online: parts.online.slice(p, p + points.length) });
    p += points.length;
    c += channels;
    return project;
  });
  const ids = new Set(projects.map((project) => project.id));
  for (const id of joined.keys()) if (!ids.has(id)) joined.delete(id);
  return { data: { link: parts.link, alarms: parts.alarms, at: parts.at, projects }, values: parts.values };
}

/** Indexes of the points whose presence or channel levels (from a project's first point and channel on) differ from `had`. */
function changedPoints(had: Pick<KnownProject, 'levels' | 'online'>, firstChannel: Int32Array, levels: Int8Array, online: Uint8Array): number[] {
  const changed: number[] = [];
  for (let i = 0; i + 1 < firstChannel.length; i++) {
    let differs = online[i] !== had.online[i];
    for (let c = firstChannel[i]; c < firstChannel[i + 1] && !differs; c++) differs = levels[c] !== had.levels[c];
    if (differs) changed.push(i);
  }
  return changed;
}

/** Where each point's channels start among its project's, and (last) how many there are. */
function firstChannels(points: readonly PointShape[]): Int32Array {
  const out = new Int32Array(points.length + 1);
  points.forEach((point, i) => {
    out[i + 1] = out[i] + point.channels.length;
  });
  return out;
}

/** A point with its presence and its channels' levels from the parts (channels whose level is theirs are kept). */
function pointWith(point: PointShape | PointView, parts: SnapshotParts, index: number, firstChannel: number): PointView {
  const channels = point.channels.map((channel: ChannelShape | ChannelView, j): ChannelView => {
    const level = parts.levels[firstChannel + j] || null;
    return 'level' in channel && channel.level === level ? channel : { ...channel, level };
  });
  return { ...point, online: parts.online[index] === 1, channels };
}

function sameFigures(project: ProjectView, figures: Omit<ScreenProject, 'points'>): boolean {
  const sameCounts = <T extends object>(a: T, b: T) => (Object.keys(a) as Array<keyof T>).every((key) => a[key] === b[key]);
  return (
    project.name === figures.name &&
    project.image === figures.image &&
    project.pointsToday === figures.pointsToday &&
    sameCounts(project.devices, figures.devices) &&
    sameCounts(project.openAlarms, figures.openAlarms) &&
    project.trends.length === figures.trends.length &&
    project.trends.every((trend, i) => trend === figures.trends[i])
  );
}

/** The snapshot as the page takes it, decoded on the page itself (where no worker can be had, and in tests). */
export const viewOf = (data: ScreenData, joined: JoinedShapes = new Map()): SnapshotView => joinSnapshot(splitSnapshot(data, knownOf(joined)), joined);

/** The snapshot call's answer decoded (in the worker): its parts, or the envelope's refusal. */
export type Decoded = { parts: SnapshotParts } | { refusal: { code: number; msg: string } };

/** Decodes the snapshot call's body (UTF-8 JSON, the platform's envelope) and takes it apart. */
export function decodeSnapshot(body: ArrayBuffer, known: KnownShapes): Decoded {
  const envelope = JSON.parse(new TextDecoder().decode(body)) as { code?: unknown; msg?: unknown; data?: ScreenData };
  if (envelope.code !== 200 || !envelope.data) return { refusal: { code: Number(envelope.code) || 0, msg: String(envelope.msg ?? '') } };
  return { parts: splitSnapshot(envelope.data, known) };
}

/** The snapshot call as the page would make it: its address and headers, and how long it may take. */
export interface SnapshotRequest {
  url: string;
  headers: Record<string, string>;
  timeoutMs: number;
  known: KnownShapes;
}

/**
 * Makes the snapshot call and decodes its answer (in the worker: the 3 MB body never reaches the page's heap, whose
 * collector it kept busy after every snapshot). Rejects when the server does not answer.
 */
export async function loadSnapshot({ url, headers, timeoutMs, known }: SnapshotRequest): Promise<Decoded> {
  const response = await fetch(url, { headers, credentials: 'include', signal: AbortSignal.timeout(timeoutMs) });
  // As the console's calls (src/api/http.ts): statuses beyond 500 are the network path's, not the server's answer.
  if (response.status < 200 || response.status > 500) throw new Error(`the snapshot call answered ${response.status}`);
  return decodeSnapshot(await response.arrayBuffer(), known);
}

/** The page's request to the snapshot worker, and its answer (an error: the server did not answer, or no envelope). */
export interface LoadRequest extends SnapshotRequest {
  id: number;
}
export type LoadAnswer = { id: number; decoded: Decoded } | { id: number; error: string };

/** The buffers of an answer, handed over to the page without a copy. */
export const transferOf = (decoded: Decoded): ArrayBuffer[] =>
  'parts' in decoded ? [decoded.parts.values.buffer, decoded.parts.levels.buffer, decoded.parts.online.buffer] : [];
