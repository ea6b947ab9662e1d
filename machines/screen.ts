import { assign, fromPromise, setup } from 'xstate';

/**
 * The connection lifecycle of a wall screen (docs/console-screens.md "The wall screen"). It runs unattended for weeks,
 * so every way the link can fail ends in a state that recovers by itself:
 *
 * - `loading`: no snapshot yet; the socket connects and the data stream fetches the snapshot once it is up.
 * - `live`: connected and in sync. A watchdog forces a reconnect when neither an event nor a heartbeat arrived for
 *   WATCHDOG_MS (a socket that says "connected" but silently stalled); the console's version is checked now and then
 *   and after every outage, and a new one reloads the page.
 * - `stale`: the socket dropped; socket.io reconnects by itself, the data stream refetches the snapshot once it is
 *   back. The screen keeps what it shows, marked "data stopped at" `staleSince`.
 * - `reconnecting`: the machine forces reconnects itself (the watchdog fired, or socket.io did not get back within
 *   STALE_GIVE_UP_MS), with a backoff. After LAST_RESORT_MS it asks the server whether it answers, and reloads the page
 *   only if it does: never a reload loop during an outage.
 * - `checking`: the server refused the socket's handshake or said the link was revoked: the screen call tells why.
 * - `revoked` / `invalid`: the link is revoked, or expired or unknown. The socket is closed and the link checked again
 *   every SLOW_CHECK_MS, since an administrator may fix it.
 *
 * Reloads are also rationed (MIN_RELOAD_GAP_MS since the last one, remembered across reloads by the page), so that
 * a page that reloads into the same trouble does not reload again and again.
 */

/** Why the server refuses a link: revoked by an administrator, past its expiry, or no such link (or a bad secret). */
export type Refusal = 'revoked' | 'expired' | 'invalid';

/** What the probe (the screen call) learnt of the server and the link. */
export type ProbeResult = { kind: 'ok' } | { kind: 'refused'; reason: Refusal } | { kind: 'unreachable' };

export interface ScreenContext {
  /** When the data shown stopped being live; undefined while live or before the first snapshot. */
  staleSince?: number;
  /** The last event or heartbeat of the socket. */
  lastActivityAt: number;
  /** Why the link is refused, in `revoked` and `invalid`. */
  refusal?: Refusal;
  /** What the server said before the check (a `screen.revoked` event): the refusal if the check cannot tell. */
  hint?: Refusal;
  /** Forced reconnects so far in `reconnecting` (the backoff grows with them). */
  attempts: number;
  /** When this page (or the one before it) last reloaded itself. */
  reloadedAt?: number;
  now: () => number;
}

export interface ScreenInput {
  reloadedAt?: number;
  now?: () => number;
}

export type ScreenEvent =
  | { type: 'socket.up'; at: number }
  | { type: 'socket.down'; at: number }
  /** An event or a heartbeat arrived: the link is alive. */
  | { type: 'socket.activity'; at: number }
  /** The server refused the socket's handshake (socket.io does not retry that). */
  | { type: 'socket.refused' }
  /** A snapshot was fetched and shown. */
  | { type: 'data.synced'; at: number }
  /** The screen call refused the link. */
  | { type: 'data.refused'; reason: Refusal }
  /** The server said the link was revoked (or expired). */
  | { type: 'link.revoked' };

/** Two heartbeats of the server (socket.io pings every 25 s) and a margin. */
export const WATCHDOG_MS = 60_000;
/** How long socket.io may try to get back by itself before the machine forces reconnects. */
export const STALE_GIVE_UP_MS = 60_000;
/** How long the first snapshot may take before the machine forces reconnects. */
export const LOADING_GIVE_UP_MS = 60_000;
/** The first forced reconnect's delay; it doubles up to RECONNECT_MAX_MS. */
export const RECONNECT_BASE_MS = 5_000;
export const RECONNECT_MAX_MS = 60_000;
/** Forcing reconnects this long without getting in sync: reload the page once the server answers. */
export const LAST_RESORT_MS = 600_000;
/** A refused link is checked again this often. */
export const SLOW_CHECK_MS = 60_000;
/** The console's version is checked this often while live (and after every outage). */
export const VERSION_CHECK_MS = 3_600_000;
/** The page reloads itself at most once in this long. */
export const MIN_RELOAD_GAP_MS = 1_800_000;

/** The backoff of forced reconnects: 5 s, 10 s, 20 s, 40 s, then every 60 s. */
export const reconnectDelay = (attempts: number): number => Math.min(RECONNECT_BASE_MS * 2 ** attempts, RECONNECT_MAX_MS);

/** The refusal a probe found, else what the server said before, else invalid. */
const refusalOf = (result: ProbeResult | undefined, hint: Refusal | undefined): Refusal => (result?.kind === 'refused' ? result.reason : (hint ?? 'invalid'));

const mayReload = (context: ScreenContext) => context.reloadedAt === undefined || context.now() - context.reloadedAt >= MIN_RELOAD_GAP_MS;

export const screenMachine = setup({
  types: { context: {} as ScreenContext, events: {} as ScreenEvent, input: {} as ScreenInput },
  actors: {
    /** Calls the screen call: does the server answer, does it accept the link? App-provided. */
    probe: fromPromise<ProbeResult>(async () => ({ kind: 'unreachable' })),
    /** Whether the server now serves another console build than this page runs. App-provided. */
    checkVersion: fromPromise<boolean>(async () => false),
  },
  actions: {
    /** Drops the socket's connection and connects again (the data stream refetches on connect). App-provided. */
    forceReconnect: () => {},
    /** Disconnects the socket for good (a refused link). App-provided. */
    closeSocket: () => {},
    /** Connects the socket again after a refused link was accepted. App-provided. */
    reopen: () => {},
    /** Remembers the time and reloads the page. App-provided. */
    reload: () => {},
    /** The data stopped at the last sign of life (or at `at`, when the socket said so), unless it already had. */
    markStale: assign(({ context }, at: number | undefined) => ({ staleSince: context.staleSince ?? at ?? context.lastActivityAt })),
    synced: assign((_, at: number) => ({ staleSince: undefined, attempts: 0, hint: undefined, refusal: undefined, lastActivityAt: at })),
    active: assign((_, at: number) => ({ lastActivityAt: at })),
    nextAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    resetAttempts: assign({ attempts: 0 }),
    hintRevoked: assign({ hint: 'revoked' as Refusal }),
    refuse: assign((_, refusal: Refusal) => ({ refusal })),
  },
  guards: {
    accepted: (_, result: ProbeResult) => result.kind === 'ok',
    refused: (_, result: ProbeResult) => result.kind === 'refused',
    refusedAs: (_, { result, as }: { result: ProbeResult; as: Refusal }) => result.kind === 'refused' && result.reason === as,
    answered: (_, result: ProbeResult) => result.kind !== 'unreachable',
    mayReload: ({ context }) => mayReload(context),
    /** A new console version, and the page may reload now. */
    reloadForVersion: ({ context }, changed: boolean) => changed && mayReload(context),
    isRevoked: (_, reason: Refusal) => reason === 'revoked',
    hintedRevoked: ({ context }) => context.hint === 'revoked',
    wasRevoked: ({ context }) => context.refusal === 'revoked',
  },
  delays: {
    watchdog: WATCHDOG_MS,
    staleGiveUp: STALE_GIVE_UP_MS,
    loadingGiveUp: LOADING_GIVE_UP_MS,
    retry: ({ context }) => reconnectDelay(context.attempts),
    lastResort: LAST_RESORT_MS,
    slowCheck: SLOW_CHECK_MS,
    versionCheck: VERSION_CHECK_MS,
  },
}).createMachine({
  id: 'screen',
  context: ({ input }) => {
    const now = input.now ?? Date.now;
    return { lastActivityAt: now(), attempts: 0, reloadedAt: input.reloadedAt, now };
  },
  initial: 'loading',
  on: {
    'data.refused': [
      { guard: { type: 'isRevoked', params: ({ event }) => event.reason }, target: '.revoked', actions: { type: 'refuse', params: ({ event }) => event.reason } },
      { target: '.invalid', actions: { type: 'refuse', params: ({ event }) => event.reason } },
    ],
    'socket.refused': '.checking',
    'link.revoked': { target: '.checking', actions: 'hintRevoked' },
  },
  states: {
    loading: {
      on: { 'data.synced': { target: 'live', actions: { type: 'synced', params: ({ event }) => event.at } } },
      after: { loadingGiveUp: 'reconnecting' },
    },
    live: {
      type: 'parallel',
      on: {
        'socket.down': { target: 'stale', actions: { type: 'markStale', params: ({ event }) => event.at } },
        'data.synced': { actions: { type: 'synced', params: ({ event }) => event.at } },
      },
      states: {
        watchdog: {
          initial: 'watching',
          states: {
            watching: {
              on: { 'socket.activity': { target: 'watching', reenter: true, actions: { type: 'active', params: ({ event }) => event.at } } },
              // Connected, but silent for too long: the link stalled without telling.
              after: { watchdog: { target: '#screen.reconnecting', actions: { type: 'markStale', params: undefined } } },
            },
          },
        },
        version: {
          initial: 'waiting',
          states: {
            waiting: { after: { versionCheck: 'checking' } },
            checking: {
              invoke: {
                src: 'checkVersion',
                onDone: [{ guard: { type: 'reloadForVersion', params: ({ event }) => event.output }, target: '#screen.reloading' }, { target: 'waiting' }],
                onError: 'waiting',
              },
            },
          },
        },
      },
    },
    stale: {
      // After an outage the server may have been redeployed: the console's version is checked at once.
      on: { 'data.synced': { target: 'live.version.checking', actions: { type: 'synced', params: ({ event }) => event.at } } },
      after: { staleGiveUp: 'reconnecting' },
    },
    reconnecting: {
      entry: ['resetAttempts', 'forceReconnect'],
      on: { 'data.synced': { target: 'live.version.checking', actions: { type: 'synced', params: ({ event }) => event.at } } },
      initial: 'early',
      states: {
        early: {
          initial: 'waiting',
          states: {
            waiting: { after: { retry: { target: 'waiting', reenter: true, actions: ['nextAttempt', 'forceReconnect'] } } },
          },
          after: { lastResort: 'late' },
        },
        // Past the last resort: each retry first asks whether the server answers, and reloads the page if it does.
        late: {
          initial: 'probing',
          states: {
            probing: {
              invoke: {
                src: 'probe',
                onDone: [
                  { guard: { type: 'refused', params: ({ event }) => event.output }, target: '#screen.checking' },
                  { guard: { type: 'answered', params: ({ event }) => event.output }, target: 'answered' },
                  { target: 'waiting' },
                ],
                onError: 'waiting',
              },
            },
            answered: { always: [{ guard: 'mayReload', target: '#screen.reloading' }, { target: 'waiting' }] },
            waiting: {
              entry: ['nextAttempt', 'forceReconnect'],
              after: { retry: 'probing' },
            },
          },
        },
      },
    },
    checking: {
      entry: { type: 'markStale', params: undefined },
      invoke: {
        src: 'probe',
        onDone: [
          { guard: { type: 'refusedAs', params: ({ event }) => ({ result: event.output, as: 'revoked' as Refusal }) }, target: 'revoked', actions: { type: 'refuse', params: ({ event, context }) => refusalOf(event.output, context.hint) } },
          { guard: { type: 'refused', params: ({ event }) => event.output }, target: 'invalid', actions: { type: 'refuse', params: ({ event, context }) => refusalOf(event.output, context.hint) } },
          // The server said revoked but cannot be asked why: believe it.
          { guard: 'hintedRevoked', target: 'revoked', actions: { type: 'refuse', params: 'revoked' as Refusal } },
          { target: 'reconnecting' },
        ],
        onError: [{ guard: 'hintedRevoked', target: 'revoked', actions: { type: 'refuse', params: 'revoked' as Refusal } }, { target: 'reconnecting' }],
      },
    },
    // A refused link: the socket closed, the link checked again slowly (an administrator may fix it).
    revoked: { entry: 'closeSocket', after: { slowCheck: 'rechecking' } },
    invalid: { entry: 'closeSocket', after: { slowCheck: 'rechecking' } },
    rechecking: {
      invoke: {
        src: 'probe',
        onDone: [
          { guard: { type: 'accepted', params: ({ event }) => event.output }, target: 'loading', actions: 'reopen' },
          { guard: { type: 'refusedAs', params: ({ event }) => ({ result: event.output, as: 'revoked' as Refusal }) }, target: 'revoked', actions: { type: 'refuse', params: ({ event, context }) => refusalOf(event.output, context.hint) } },
          { guard: { type: 'refused', params: ({ event }) => event.output }, target: 'invalid', actions: { type: 'refuse', params: ({ event, context }) => refusalOf(event.output, context.hint) } },
          { guard: 'wasRevoked', target: 'revoked' },
          { target: 'invalid' },
        ],
        onError: [{ guard: 'wasRevoked', target: 'revoked' }, { target: 'invalid' }],
      },
    },
    // The page is going away: nothing more to do.
    reloading: { type: 'final', entry: 'reload' },
  },
});
