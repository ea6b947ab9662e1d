/** What the connections benchmark (run.ts) and its load generators (devices.ts) tell each other over IPC. */

export type Command =
  /** Connect these devices; `firstSlot` is the first one's place in the fleet (its turn to publish). */
  | { cmd: 'connect'; codes: string[]; firstSlot: number }
  /** Publish one reading every `periodMs`, slot s of `slots` first at `startAt + s / slots × periodMs`. */
  | { cmd: 'publish'; startAt: number; periodMs: number; slots: number }
  /** The server is about to be restarted: count from here who drops, comes back and publishes again. */
  | { cmd: 'restart' }
  | { cmd: 'stop' };

/** One generator's counts so far; times on `clock()`, 0 while nothing happened. */
export interface GeneratorReport {
  devices: number;
  /** Connected now. */
  connected: number;
  /** Connected at least once (CONNACK). */
  everConnected: number;
  /** The first CONNECT, the last first CONNACK. */
  firstConnectAt: number;
  lastConnackAt: number;
  published: number;
  acked: number;
  failed: number;
  /** Since the restart mark: connections lost, devices connected again, devices with a reading acknowledged after. */
  dropped: number;
  back: number;
  backAcked: number;
  lastBackAt: number;
  lastBackAckedAt: number;
  /**
   * Periodic publishes that went out more than LATE_MS after their turn (since publishing began, and again since the
   * restart mark), and the latest of them (ms): a generator short of CPU sends its devices' readings in bursts that no
   * device elsewhere would send.
   */
  late: number;
  worstLateMs: number;
  /** Its CPU time (user + system). */
  cpuMs: number;
  /** Client errors by message (refused, connack timeout, connection refused while the server is down…). */
  errors: Record<string, number>;
}

export type Reply = { type: 'ready' } | { type: 'marked' } | ({ type: 'report'; final: boolean } & GeneratorReport);

/** How late a periodic publish may go out before it counts as late (report.late). */
export const LATE_MS = 100;

/** One clock across processes: milliseconds since the epoch, with a fraction. */
export const clock = (): number => performance.timeOrigin + performance.now();

export const emptyReport = (): GeneratorReport => ({
  devices: 0,
  connected: 0,
  everConnected: 0,
  firstConnectAt: 0,
  lastConnackAt: 0,
  published: 0,
  acked: 0,
  failed: 0,
  dropped: 0,
  back: 0,
  backAcked: 0,
  lastBackAt: 0,
  lastBackAckedAt: 0,
  late: 0,
  worstLateMs: 0,
  cpuMs: 0,
  errors: {},
});
