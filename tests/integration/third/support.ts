import { expect } from 'vitest';
import type { PullTimer } from '../../../server/third/puller';
import { type ApiClient, type Reply, signedIn } from '../../support/client';
import type { StoreKind } from '../../support/databases';
import { expectOk, type Row } from '../../support/envelope';
import { startServer, type TestServer } from '../../support/server';
import { demoId, staffUser, X } from '../monitoring/support';

/**
 * Two real servers: `remote` plays the third-party platform (its demo tenant 100001 holds the bridge project and its
 * devices), `ours` pulls from it into its own demo tenant. Both run the seed, so the remote's seeded ids are also ids
 * of our own demo rows: tests bind a project created for the purpose and check nothing reaches our own demo rows.
 */

/** The remote sign-in the connections use: a staff user and a client of its own, so their secrets can be spotted. */
export const REMOTE_ACCOUNT = 'vigil-sync';
export const REMOTE_PASSWORD = 'Staff@123';
export const REMOTE_CLIENT = 'vigil-sync';
export const REMOTE_CLIENT_SECRET = 'Sync#Client-Secret-9';
/** A client whose tokens live 4 seconds, to see them refreshed. */
export const SHORT_CLIENT = 'vigil-short';

/** The remote's seeded bridge project and devices. */
export const REMOTE_BRIDGE = demoId('project:bridge');
export const remoteDevice = (code: string) => demoId(`device:${code}`);

/**
 * The puller's timers, fired by the test: a periodic pull happens when the test lets the interval elapse, and only
 * for the connections that have a timer armed then — so "it did not pull" is proved without waiting.
 */
export class PullClock {
  private readonly armed = new Set<{ delayMs: number; fire: () => Promise<void> }>();
  private at = Date.now();

  /** The puller's clock: an interval passes at each elapse. */
  readonly now = () => this.at;

  readonly timer: PullTimer = (delayMs, fire) => {
    const entry = { delayMs, fire };
    this.armed.add(entry);
    return { stop: () => void this.armed.delete(entry) };
  };

  /** The delays of the timers armed now, one per scheduled connection. */
  pending(): number[] {
    return [...this.armed].map((t) => t.delayMs);
  }

  /** Fires every armed timer, as their interval elapsing would, and waits for the pulls (and the re-arming) to end. */
  async elapse(): Promise<void> {
    const due = [...this.armed];
    for (const t of due) this.armed.delete(t);
    this.at += Math.max(1, ...due.map((t) => t.delayMs));
    await Promise.all(due.map((t) => t.fire()));
  }
}

export interface Pair {
  remote: TestServer;
  ours: TestServer;
  /** Administrator of the remote's tenant 100001. */
  remoteAdmin: ApiClient;
  /** Administrator of our tenant 100001. */
  demo: ApiClient;
  /** Our platform administrator (tenant 000000). */
  platformAdmin: ApiClient;
  /** Our puller's timers. */
  clock: PullClock;
  stop(): Promise<void>;
}

export async function startPair(store: StoreKind): Promise<Pair> {
  const remote = await startServer(store);
  const clock = new PullClock();
  const ours = await startServer(store, {}, undefined, undefined, { puller: { timer: clock.timer, now: clock.now } });
  const remoteRoot = await signedIn(remote.url);
  for (const [clientId, clientSecret, validity] of [[REMOTE_CLIENT, REMOTE_CLIENT_SECRET, 3600], [SHORT_CLIENT, 'Short#Secret-4', 4]] as const) {
    expectOk(
      await remoteRoot.post('/api/blade-system/client/submit', { clientId, clientSecret, scope: 'all', authorizedGrantTypes: 'refresh_token,password', accessTokenValidity: validity, refreshTokenValidity: 3600 }),
    );
  }
  await staffUser(remote, '100001', REMOTE_ACCOUNT);
  return {
    remote,
    ours,
    remoteAdmin: await signedIn(remote.url, 'admin', 'admin', '100001'),
    demo: await signedIn(ours.url, 'admin', 'admin', '100001'),
    platformAdmin: await signedIn(ours.url),
    clock,
    stop: async () => {
      await ours.stop();
      await remote.stop();
    },
  };
}

/** The body of a connection to the remote's tenant 100001, with the given changes. */
export const connection = (remote: TestServer, extra: Row | Record<string, unknown> = {}) => ({
  name: '远程监测平台',
  platformType: 'bladex',
  baseUrl: `${remote.url}/`,
  thirdTenantId: '100001',
  username: REMOTE_ACCOUNT,
  password: REMOTE_PASSWORD,
  clientId: REMOTE_CLIENT,
  clientSecret: REMOTE_CLIENT_SECRET,
  codePrefix: 'R-',
  timeoutSeconds: 5,
  ...extra,
});

/** Fails when a reply carries a connection's secrets anywhere. */
export function expectNoSecrets(reply: Reply<unknown>): void {
  const text = JSON.stringify(reply.body);
  for (const secret of [REMOTE_PASSWORD, REMOTE_CLIENT_SECRET]) expect(text, `a reply carries a secret: ${text.slice(0, 300)}`).not.toContain(secret);
}

/** A GET of ours whose reply must be fine and free of secrets. */
export async function fetchOk<T>(api: ApiClient, path: string, query?: Record<string, string | number>): Promise<T> {
  const reply = await api.get<T>(`${X}/${path}`, query);
  expectNoSecrets(reply);
  return expectOk(reply);
}

export async function postOk<T>(api: ApiClient, path: string, body?: unknown): Promise<T> {
  const reply = await api.post<T>(`${X}/${path}`, body);
  expectNoSecrets(reply);
  return expectOk(reply);
}
