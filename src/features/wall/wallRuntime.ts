import { BehaviorSubject, from, type Observable, Subject } from 'rxjs';
import { io } from 'socket.io-client';
import { type Actor, createActor, fromPromise } from 'xstate';
import { type ProbeResult, screenMachine } from '../../../machines/screen';
import { lifecycleEvents, type ScreenStreamEvent, screenEvents, screenTransport } from '../../../streams/screen';
import { ScreenChannels } from '../../../streams/screenChannels';
import { initialScreenState, reduceScreen, type ScreenState } from '../../../streams/screenState';
import { createAlarmSound, type AlarmSound } from './alarmSound';
import { consoleChanged, type WallClient, wallClient } from './wallApi';

/**
 * A running wall screen outside React: its socket, the data stream reduced into the screen's state, the lifecycle
 * machine the stream drives, and the alarm sound. React reads it (useSyncExternalStore, @xstate/react); nothing
 * here depends on a render, so a screen that is not repainted (a hidden tab) still keeps its link alive.
 */
export interface WallRuntime {
  client: WallClient;
  actor: Actor<typeof screenMachine>;
  sound: AlarmSound;
  state(): ScreenState;
  /** The channels' live values and today's counts: the tiles read them one by one (wallPaging.ts useChannel). */
  channels: ScreenChannels;
  subscribe(listener: () => void): () => void;
  /**
   * A project's image (the `image` of the screen's data) as an object URL, or null when it cannot be had. Kept while
   * a project of the link has it, so the rotation does not fetch it again; revoked once none has.
   */
  image(path: string): Promise<string | null>;
  /** Every batch of the stream's events, as it is folded (the trend charts take readings and syncs from it). */
  batches$: Observable<readonly ScreenStreamEvent[]>;
  stop(): void;
}

/** Where the page remembers its last reload (machines/screen.ts rations them): this tab's session storage. */
const RELOADED_AT = 'vigil-wall-reloaded-at';

function reloadedAt(): number | undefined {
  const stored = Number(sessionStorage.getItem(RELOADED_AT));
  return Number.isFinite(stored) && stored > 0 ? stored : undefined;
}

function reload(): void {
  sessionStorage.setItem(RELOADED_AT, String(Date.now()));
  location.reload();
}

export function startWall(secret: string): WallRuntime {
  const client = wallClient(secret);
  // Long-polling first, upgraded to a WebSocket where the network lets it: behind a firewall that blocks WebSockets
  // the screen stays on polling (a WebSocket first would fail there and never fall back).
  const socket = io({ path: '/socket.io', transports: ['polling', 'websocket'], auth: { display: secret }, autoConnect: false });
  const sound = createAlarmSound();
  const actor = createActor(
    screenMachine.provide({
      actors: {
        probe: fromPromise<ProbeResult>(() => client.probe()),
        checkVersion: fromPromise<boolean>(() => consoleChanged()),
      },
      actions: {
        forceReconnect: () => {
          socket.disconnect();
          socket.connect();
        },
        closeSocket: () => socket.disconnect(),
        reopen: () => socket.connect(),
        reload,
      },
    }),
    { input: { reloadedAt: reloadedAt() } },
  );
  const state$ = new BehaviorSubject<ScreenState>(initialScreenState);
  const batches$ = new Subject<readonly ScreenStreamEvent[]>();
  const channels = new ScreenChannels();
  const events = screenEvents(screenTransport(socket), () => from(client.snapshot())).subscribe((batch) => {
    // The channels first, so a new snapshot's tiles find their values; the state only when something in it changed.
    channels.take(batch);
    const next = reduceScreen(state$.value, batch);
    if (next !== state$.value) state$.next(next);
    batches$.next(batch);
    for (const event of lifecycleEvents(batch, Date.now())) actor.send(event);
  });
  const images = imageCache(client);
  const pruning = state$.subscribe((state) => images.keep(new Set(state.data?.projects.flatMap((p) => (p.image ? [p.image] : [])) ?? [])));
  actor.start();
  socket.connect();
  return {
    client,
    actor,
    sound,
    state: () => state$.value,
    channels,
    subscribe: (listener) => {
      const subscription = state$.subscribe(listener);
      return () => subscription.unsubscribe();
    },
    image: images.get,
    batches$,
    stop: () => {
      events.unsubscribe();
      pruning.unsubscribe();
      images.keep(new Set());
      actor.stop();
      socket.close();
      sound.close();
      client.close();
      batches$.complete();
      state$.complete();
    },
  };
}

/** Object URLs of the images, by path; those no project names any more are revoked. A failed fetch is tried again. */
function imageCache(client: WallClient) {
  const cache = new Map<string, Promise<string | null>>();
  return {
    get: (path: string): Promise<string | null> => {
      let entry = cache.get(path);
      if (!entry) {
        entry = client.image(path).then(
          (blob) => URL.createObjectURL(blob),
          () => {
            cache.delete(path);
            return null;
          },
        );
        cache.set(path, entry);
      }
      return entry;
    },
    keep: (paths: ReadonlySet<string>) => {
      for (const [path, entry] of cache) {
        if (paths.has(path)) continue;
        cache.delete(path);
        void entry.then((url) => url && URL.revokeObjectURL(url));
      }
    },
  };
}
