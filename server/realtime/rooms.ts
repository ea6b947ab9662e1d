import type { Server } from 'socket.io';

/** The server-side event that tells the other processes of a room just joined. */
const JOINED = 'vigil:rooms.joined';
/** How often a process reads the rooms of the whole deployment, and how long a told room counts without it. */
const REFRESH_MS = 1000;
const TOLD_MS = 3 * REFRESH_MS;

/**
 * Which rooms have a socket anywhere in the deployment (docs/operations.md): events of devices and projects nobody
 * watches are neither built nor sent — with the Redis adapter each would be a Redis publish, thousands a second. A
 * process knows its own rooms; it hears of a room joined on another process at once (a server-side event) and reads
 * the whole deployment's rooms every second (which also forgets rooms left and processes gone).
 */
export class WatchedRooms {
  private deployment = new Set<string>();
  private readonly told = new Map<string, number>();
  private readonly timer?: NodeJS.Timeout;
  private refreshing = false;

  constructor(
    private readonly io: Server,
    private readonly clustered: boolean,
    private readonly onError: (error: unknown) => void,
    /** Whether Redis is reachable: no request is queued for it while it is away (none would be answered). */
    private readonly connected: () => boolean = () => true,
  ) {
    if (!clustered) return;
    io.on(JOINED, (rooms: string[]) => {
      for (const room of rooms) this.told.set(room, Date.now());
    });
    this.timer = setInterval(() => void this.refresh(), REFRESH_MS);
    this.timer.unref();
  }

  private get local(): Map<string, Set<string>> {
    return this.io.of('/').adapter.rooms;
  }

  has(room: string): boolean {
    return this.local.has(room) || this.deployment.has(room) || (this.told.get(room) ?? 0) > Date.now() - TOLD_MS;
  }

  /** Whether any room starting with `prefix` is watched. */
  hasPrefix(prefix: string): boolean {
    const starts = (rooms: Iterable<string>) => {
      for (const room of rooms) if (room.startsWith(prefix)) return true;
      return false;
    };
    return starts(this.local.keys()) || starts(this.deployment) || [...this.told.keys()].some((room) => room.startsWith(prefix) && this.has(room));
  }

  /** After sockets of this process joined `rooms`: the other processes start sending their events. */
  joined(rooms: readonly string[]): void {
    if (this.clustered) this.io.serverSideEmit(JOINED, rooms);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async refresh(): Promise<void> {
    if (this.refreshing || !this.connected()) return;
    this.refreshing = true;
    try {
      // The Redis adapter's: every process's rooms (clustered is only set with it).
      this.deployment = await (this.io.of('/').adapter as unknown as { allRooms(): Promise<Set<string>> }).allRooms();
      const stale = Date.now() - TOLD_MS;
      for (const [room, at] of this.told) if (at <= stale) this.told.delete(room);
    } catch (error) {
      this.onError(error);
    } finally {
      this.refreshing = false;
    }
  }
}
