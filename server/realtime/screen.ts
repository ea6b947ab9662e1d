import type { Server, Socket } from 'socket.io';
import { SCREEN_EVENTS, type ScreenAlarm, type ScreenPresence, type ScreenReading } from '../../resources/wire/screen';
import { type DisplayLink, hashSecret } from '../auth/display';
import { type AlarmsChanged, affects } from '../events';
import type { PresenceChange, StoredReading } from '../ingest/types';
import { ALARM_COLUMNS, type AlarmColumns, alarmLineOf } from '../modules/wit-xinde/screen/lines';
import type { Platform } from '../platform';
import type { WatchedRooms } from './rooms';

/**
 * The wall screens' live side (docs/wall-screen.md "Events"). A socket whose handshake carries `auth.display` is a
 * screen: it joins its link's room and a room per project of the link (named with the link's tenant, so a project
 * moved to another tenant sends it nothing), and nothing else — no user or tenant room, no debug stream. Stored
 * readings, alarm changes and presence go to the project rooms that someone watches. A screen whose link is
 * revoked, regenerated, removed or expired, or whose tenant is disabled or expired, is sent `screen.revoked` and
 * disconnected; one whose link was edited is sent `screen.changed`. That is checked on every change of the link or
 * tenant tables here, at the link's expiry, and every SWEEP_MS (changes made by another server process).
 */

const SWEEP_MS = 10_000;
/** setTimeout's longest delay; a later expiry is looked at again when it fires. */
const MAX_DELAY = 2_147_483_647;

export const screenLinkRoom = (linkId: string) => `screen:link:${linkId}`;
export const screenProjectRoom = (tenantId: string, projectId: string) => `screen:project:${tenantId}:${projectId}`;
const PROJECT_ROOMS = 'screen:project:';

/** What a screen's socket keeps of its link: the secret's hash (never the secret) and what it was shown. */
interface DisplaySocket {
  hash: string;
  linkId: string;
  signature: string;
  rooms: string[];
}

const displayOf = (socket: Socket): DisplaySocket | undefined => socket.data.display as DisplaySocket | undefined;

/** Whether the socket is a wall screen's (it has no principal, and gets none of the users' streams). */
export const isDisplaySocket = (socket: Socket): boolean => displayOf(socket) !== undefined;

/** What the screen shows of its link: a change of any of it is `screen.changed`. */
const signatureOf = (link: DisplayLink) =>
  JSON.stringify([link.name, link.projectIds, link.layout, link.rotateSeconds, link.trends, link.expiresAt]);

const roomsOf = (link: DisplayLink) => [screenLinkRoom(link.id), ...link.projectIds.map((id) => screenProjectRoom(link.tenantId, id))];

/**
 * The handshake of a screen: verifies `auth.display` and records its use. Answers the refusal's message, or
 * undefined when the socket may connect (then it is a screen).
 */
export async function authenticateDisplay(platform: Platform, socket: Socket, secret: unknown): Promise<string | undefined> {
  const check = await platform.displays.verify(typeof secret === 'string' ? secret : undefined);
  if ('refused' in check) return check.refused;
  socket.data.display = { hash: hashSecret(secret as string), linkId: check.link.id, signature: signatureOf(check.link), rooms: roomsOf(check.link) } satisfies DisplaySocket;
  const agent = socket.handshake.headers['user-agent'];
  await platform.displays.touch(check.link, socket.handshake.address, Array.isArray(agent) ? agent[0] : agent);
  return undefined;
}

export function attachScreen(io: Server, platform: Platform, rooms: WatchedRooms): () => void {
  // A screen may sit on another process of the deployment.
  const watched = (room: string) => rooms.has(room);
  const anyScreen = () => rooms.hasPrefix(PROJECT_ROOMS);

  const sweeper = new Sweeper(io, platform, rooms);
  io.on('connection', (socket) => {
    const display = displayOf(socket);
    if (!display) return;
    void socket.join(display.rooms);
    rooms.joined(display.rooms);
    // Arms the check at its link's expiry (and catches a change made since the handshake).
    sweeper.sweep();
  });

  const onReadings = (batch: readonly StoredReading[]) => {
    if (!anyScreen()) return;
    // One event per project room and batch: the readings of one device at one instant together.
    const byRoom = new Map<string, Map<string, ScreenReading>>();
    for (const r of batch) {
      if (!r.projectId) continue;
      const room = screenProjectRoom(r.tenantId, r.projectId);
      let readings = byRoom.get(room);
      if (!readings) {
        if (!watched(room)) continue;
        readings = new Map();
        byRoom.set(room, readings);
      }
      const key = `${r.deviceId}|${r.ts}`;
      const reading = readings.get(key) ?? { projectId: r.projectId, deviceId: r.deviceId, ts: r.ts, values: {} };
      reading.values[r.pointKey] = r.value;
      readings.set(key, reading);
    }
    for (const [room, readings] of byRoom) io.to(room).emit(SCREEN_EVENTS.readings, [...readings.values()]);
  };

  const onAlarms = (change: AlarmsChanged) => {
    if (!anyScreen()) return;
    void sendAlarms(change).catch((error: unknown) => platform.logs.error('realtime', error, 'screen alarms'));
  };

  /** Background read of the changed alarms and their names (server/db/raw-queries.ts). */
  async function sendAlarms(change: AlarmsChanged): Promise<void> {
    const { db } = platform;
    const rows = (await db
      .selectFrom('wit_alarm')
      .select([...ALARM_COLUMNS, 'tenantId', 'isDeleted'])
      .where('id', 'in', [...change.ids])
      .execute()) as Array<AlarmColumns & { tenantId: string; isDeleted: number }>;
    const shown = rows.filter((r) => r.projectId && watched(screenProjectRoom(r.tenantId, r.projectId)));
    if (shown.length === 0) return;
    const projectIds = [...new Set(shown.map((r) => r.projectId as string))];
    const deviceIds = [...new Set(shown.map((r) => r.deviceId))];
    const projects = await db.selectFrom('wit_project').select(['id', 'name']).where('id', 'in', projectIds).execute();
    const devices = await db.selectFrom('wit_device').select(['id', 'name']).where('id', 'in', deviceIds).execute();
    const projectNames = new Map(projects.map((p) => [p.id, p.name]));
    const deviceNames = new Map(devices.map((d) => [d.id, d.name]));
    for (const row of shown) {
      const room = screenProjectRoom(row.tenantId, row.projectId as string);
      // A removed alarm leaves the list: the screen reads it again.
      if (Number(row.isDeleted) === 1) io.to(room).emit(SCREEN_EVENTS.changed);
      else io.to(room).emit(SCREEN_EVENTS.alarm, { ...alarmLineOf(row, projectNames, deviceNames), at: change.at } satisfies ScreenAlarm);
    }
  }

  const projectOfDevice = new Map<string, { tenantId: string; projectId: string | null }>();
  const forgetDevices = (table: string) => {
    if (affects(table, ['wit_device'])) projectOfDevice.clear();
  };

  const onPresence = (change: PresenceChange) => {
    if (change.kind !== 'device' || !anyScreen()) return;
    void (async () => {
      let owner = projectOfDevice.get(change.id);
      if (!owner) {
        const row = await platform.db.selectFrom('wit_device').select(['tenantId', 'projectId']).where('id', '=', change.id).executeTakeFirst();
        owner = { tenantId: row?.tenantId ?? change.tenantId, projectId: row?.projectId ?? null };
        projectOfDevice.set(change.id, owner);
      }
      if (!owner.projectId) return;
      const room = screenProjectRoom(owner.tenantId, owner.projectId);
      if (watched(room)) io.to(room).emit(SCREEN_EVENTS.presence, { projectId: owner.projectId, deviceId: change.id, online: change.online, at: change.at } satisfies ScreenPresence);
    })().catch((error: unknown) => platform.logs.error('realtime', error, 'screen presence'));
  };

  const onChanged = (table: string) => {
    forgetDevices(table);
    if (affects(table, ['wit_display_link', 'blade_tenant'])) sweeper.sweep();
  };
  platform.events.on('readings', onReadings);
  platform.events.on('alarms', onAlarms);
  platform.events.on('presence', onPresence);
  platform.events.on('changed', onChanged);
  sweeper.start();

  return () => {
    platform.events.off('readings', onReadings);
    platform.events.off('alarms', onAlarms);
    platform.events.off('presence', onPresence);
    platform.events.off('changed', onChanged);
    sweeper.stop();
  };
}

/**
 * Checks every screen connected to this process against its link as it is now: refused ones are told and closed,
 * edited ones told and moved to their new rooms. One check at a time; a change during one runs another after it.
 */
class Sweeper {
  private running?: Promise<void>;
  private again = false;
  private interval?: NodeJS.Timeout;
  private expiry?: NodeJS.Timeout;

  constructor(
    private readonly io: Server,
    private readonly platform: Platform,
    private readonly rooms: WatchedRooms,
  ) {}

  start(): void {
    this.interval = setInterval(() => this.sweep(), SWEEP_MS);
    this.interval.unref();
  }

  stop(): void {
    clearInterval(this.interval);
    clearTimeout(this.expiry);
  }

  sweep(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.check()
      .catch((error: unknown) => this.platform.logs.error('realtime', error, 'screen links check'))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.sweep();
        }
      });
  }

  private async check(): Promise<void> {
    let earliest = Number.POSITIVE_INFINITY;
    for (const socket of this.io.of('/').sockets.values()) {
      const display = displayOf(socket);
      if (!display) continue;
      const check = await this.platform.displays.verifyHash(display.hash);
      if ('refused' in check) {
        // Sent before the close: the transport writes what is queued first.
        socket.emit(SCREEN_EVENTS.revoked);
        socket.disconnect(true);
        continue;
      }
      const signature = signatureOf(check.link);
      if (signature !== display.signature) {
        const next = roomsOf(check.link);
        for (const room of display.rooms) if (!next.includes(room)) await socket.leave(room);
        await socket.join(next);
        this.rooms.joined(next);
        Object.assign(display, { signature, rooms: next });
        socket.emit(SCREEN_EVENTS.changed);
      }
      if (check.until !== undefined) earliest = Math.min(earliest, check.until);
    }
    this.arm(earliest);
  }

  /** A check at the earliest expiry of a connected screen's link or tenant. */
  private arm(at: number): void {
    clearTimeout(this.expiry);
    if (!Number.isFinite(at)) return;
    this.expiry = setTimeout(() => this.sweep(), Math.min(MAX_DELAY, Math.max(0, at - Date.now()) + 50));
    this.expiry.unref();
  }
}
