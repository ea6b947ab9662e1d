import type { AlarmLine, LevelCounts, PresenceCounts } from './statistics';

/**
 * The wall screen (docs/wall-screen.md): what a display link reads and the socket events that keep it live. A display
 * link's secret travels in the page's fragment (`/wall#<secret>`, never sent in a URL to the server, never logged),
 * then in the `Vigil-Display` header of the screen calls and in the socket handshake's `auth.display`.
 */

export const DISPLAY_HEADER = 'vigil-display';

/** The socket events of a wall screen, each sent to the rooms of the link's projects (and the link's own room). */
export const SCREEN_EVENTS = {
  /** `ScreenReading[]`: the readings stored in one ingest batch, of one project. */
  readings: 'screen.readings',
  /** `ScreenAlarm`: an alarm of the project was raised, moved, cleared or handled. */
  alarm: 'screen.alarm',
  /** `ScreenPresence`: a device of the project went online or offline. */
  presence: 'screen.presence',
  /** No payload: the link was revoked, expired or changed; the screen stops (revoked) or refetches (changed). */
  revoked: 'screen.revoked',
  changed: 'screen.changed',
} as const;

/** Which panels take the screen: the structure diagram, the latest values, or the trend charts. */
export const SCREEN_LAYOUTS = ['structure', 'values', 'trends'] as const;
export type ScreenLayout = (typeof SCREEN_LAYOUTS)[number];

/** One channel of a device (a point key) as the screen shows it. */
export interface ScreenChannel {
  deviceId: string;
  pointKey: string;
  /** The factor item's name, else the device point's, else the key. */
  name: string;
  unit: string | null;
  precision: number | null;
  /** The latest value and the one before it (for the change), epoch ms of the latest. */
  value: number | null;
  previous: number | null;
  ts: number | null;
  /** Level of the channel's open alarm, or null. */
  level: number | null;
}

/** A monitor point (or, in a project without monitor points, a device) and where it sits on the project's image. */
export interface ScreenPoint {
  id: string;
  name: string;
  /** Position on the project image as fractions of its width and height (0…1); null: not placed. */
  x: number | null;
  y: number | null;
  online: boolean;
  channels: ScreenChannel[];
}

export interface ScreenProject {
  id: string;
  name: string;
  /**
   * The structure image or diagram: the URL of `GET screen/image` for the project (an image attachment the server
   * streams; fetch it with the display header and show a blob URL), or null: the screen draws a plain grid.
   */
  image: string | null;
  points: ScreenPoint[];
  devices: PresenceCounts;
  pointsToday: number;
  openAlarms: LevelCounts;
  /** The channels the trend panel charts (`deviceId:pointKey`). */
  trends: string[];
}

/** `GET /api/wit-xinde/screen/data`: everything a wall screen paints. */
export interface ScreenData {
  link: { id: string; name: string; layout: ScreenLayout; rotateSeconds: number; expiresAt: string | null };
  projects: ScreenProject[];
  /** Open alarms of the link's projects, worst level first, then newest. */
  alarms: AlarmLine[];
  /** Server time (epoch ms) of the snapshot: live events after it are newer. */
  at: number;
}

/** `screen.readings`: values stored for one device at `ts`. */
export interface ScreenReading {
  projectId: string;
  deviceId: string;
  ts: number;
  values: Record<string, number>;
}

export interface ScreenAlarm extends AlarmLine {
  /** Epoch ms of the change. */
  at: number;
}

export interface ScreenPresence {
  projectId: string;
  deviceId: string;
  online: boolean;
  at: number;
}

/** `GET /api/wit-xinde/screen/trend (deviceId, pointKey, hours?)`: a downsampled series, [epoch ms, value] pairs. */
export type ScreenTrend = Array<[number, number]>;
