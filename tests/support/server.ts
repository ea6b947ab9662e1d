import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppOptions, buildApp, type App } from '../../server/app';
import { DEFAULT_SIGN_IN_RULES } from '../../server/auth/sign-in-rules';
import { loadConfig, type Config } from '../../server/config';
import { CALL_LIMITS, type CallLimit, type CallLimits, type LimitName } from '../../server/http/limits';
import { createPgDatabase, type StoreKind } from './databases';
import { SEEDED_STORE_ENV } from './seeded-store';

/** Where a test server keeps its data: a data dir and, on PostgreSQL, a database. */
export interface TestStore {
  kind: StoreKind;
  dataDir: string;
  databaseUrl?: string;
  /** Removes the data dir and drops the database. */
  remove(): Promise<void>;
}

export interface TestServer {
  url: string;
  app: App;
  store: StoreKind;
  dataDir: string;
  /** The data dir and database, for a later server to start on (startServer's `reuse`). */
  storage: TestStore;
  /** Closes the server and removes its store, unless `keepStore` (a restart test starts another server on it). */
  stop(options?: { keepStore?: boolean }): Promise<void>;
  /**
   * Stops the server and starts another on the same store, HTTP port and MQTT port, with the same settings: a
   * deployment restarted in place, which browsers and devices reconnect to at the address they knew.
   */
  restart(): Promise<TestServer>;
}

/** The outbound guard as a deployment has it by default: private and local addresses refused. */
export const GUARDED: Pick<Config, 'outbound'> = { outbound: { allowPrivate: false, allow: [] } };

/**
 * Suites sign in from one address far more often than people do: the sign-in throttles are relaxed unless a suite
 * passes `signIn` itself (tests/integration/core/sign-in.test.ts). Captcha and lock rules stay as deployed.
 */
export const RELAXED_SIGN_IN = { ...DEFAULT_SIGN_IN_RULES, perAddress: 1_000_000, perAccount: 1_000_000 };

/**
 * Suites call exports, uploads and charts far more often than people do: the call limits are relaxed unless a suite
 * passes `limits` itself (tests/integration/core/limits.test.ts).
 */
export const RELAXED_LIMITS: CallLimits = Object.fromEntries(
  Object.entries(CALL_LIMITS).map(([name, limit]) => [name, { ...limit, max: 1_000_000 }]),
) as Record<LimitName, CallLimit>;

async function newStore(kind: StoreKind, seeded: boolean): Promise<TestStore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-test-'));
  // The run's seeded store (tests/support/seeded-store.ts) where there is one; a fresh store otherwise.
  const template = process.env[SEEDED_STORE_ENV];
  if (kind === 'sqlite' && seeded && template) cpSync(template, dataDir, { recursive: true });
  const pgDb = kind === 'postgres' ? await createPgDatabase() : undefined;
  return {
    kind,
    dataDir,
    databaseUrl: pgDb?.url,
    remove: async () => {
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A real server on an ephemeral port with a new database (SQLite file or a fresh PostgreSQL database), or on the
 * store of a server stopped with `keepStore` (`reuse`), as a restarted deployment would be.
 */
export async function startServer(
  store: StoreKind = 'sqlite',
  overrides: Partial<Config> = {},
  /** Runs before the server listens, e.g. to add a route a test needs. */
  prepare?: (app: App) => void | Promise<void>,
  reuse?: TestStore,
  /** Seams of the server (e.g. the third-party puller's timers). */
  options?: AppOptions,
): Promise<TestServer> {
  const storage = reuse ?? (await newStore(store, !overrides.demo));
  const { dataDir, databaseUrl } = storage;
  const config = loadConfig(
    // The suites' push targets and third-party platforms are local servers: the outbound guard lets them through
    // (tests/integration/*/outbound.test.ts start servers with `outbound: GUARDED` to see it refuse).
    { LOG_LEVEL: 'silent', OUTBOUND_ALLOW_PRIVATE: '1' },
    { dataDir, port: 0, mqttPort: 0, host: '127.0.0.1', databaseUrl, jwtSecret: 'test-secret-0123456789abcdef', consoleDir: join(dataDir, 'no-console'), signIn: RELAXED_SIGN_IN, limits: RELAXED_LIMITS, ...overrides },
  );
  const app = await buildApp(config, options);
  try {
    await prepare?.(app);
    await app.app.listen({ port: config.port, host: '127.0.0.1' });
  } catch (error) {
    // A server that could not start (a port taken) leaves nothing running behind the test that tried.
    await app.close();
    if (!reuse) await storage.remove();
    throw error;
  }
  const address = app.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const stop = async (options: { keepStore?: boolean } = {}) => {
    await app.close();
    if (!options.keepStore) await storage.remove();
  };
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    store: storage.kind,
    dataDir,
    storage,
    stop,
    restart: async () => {
      await stop({ keepStore: true });
      return startServer(store, { ...overrides, port, mqttPort: app.broker?.port ?? overrides.mqttPort ?? 0 }, prepare, storage, options);
    },
  };
}

/**
 * A second process of the deployment on `server`'s store, as tests of two processes acting at once need (a race on
 * one row): on PostgreSQL a server with its own connections; on SQLite — one process's database by design — a server
 * on the first one's connection, since one thread cannot hold the file through two (the second connection waiting in
 * SQLite's busy handler would block the thread the first needs to commit). Either way it has its own caches, queues
 * and background work. Its stop leaves the store to `server`.
 */
export async function startPeer(server: TestServer, options: AppOptions = {}, overrides: Partial<Config> = {}): Promise<TestServer> {
  const { db, dialect, native } = server.app.platform;
  const shared = dialect === 'sqlite' ? { database: { db, dialect, native, close: async () => undefined } } : {};
  const peer = await startServer(server.store, overrides, undefined, server.storage, { ...options, ...shared });
  return { ...peer, stop: () => peer.stop({ keepStore: true }) };
}
