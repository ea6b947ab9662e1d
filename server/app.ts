import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { RESOURCES } from '../resources';
import { join } from 'node:path';
import cors from '@fastify/cors';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { type Alarms, startAlarms } from './alarms';
import { type Disposal, startDisposal } from './alarms/disposal';
import { DisplayLinks } from './auth/display';
import { RevocationList } from './auth/revocations';
import { Leases } from './cluster/leases';
import { type Relay, startRelay } from './cluster/relay';
import { Secrets } from './auth/secrets';
import { RightsService } from './auth/rights';
import { SignInGuard } from './auth/sign-in-guard';
import { ScopeService } from './auth/scopes';
import { OAuth2Provider } from './auth/social';
import { TokenService } from './auth/tokens';
import { type KeyValueStore, MemoryStore, RedisStore } from './cache';
import type { Config } from './config';
import { type Database, openDatabase } from './db/database';
import { migrateToLatest } from './db/migrate';
import { analyseUnanalysed } from './db/statistics';
import { sealStoredSecrets } from './db/seal-secrets';
import { seed } from './db/seed';
import { EventBus } from './events';
import { API_PATH, type DeclaredRoute, installApiLog, installAuth, requireDeclaredRights } from './http/auth-hook';
import { failure, MESSAGES } from './http/envelope';
import { closeConnectionsWhileClosing, frameworkErrors, installErrorHandler } from './http/errors';
import { installTranslation } from './http/language';
import { installSecurityHeaders } from './http/headers';
import { installCallLimits } from './http/limits';
import { type Broker, createBroker } from './ingest/broker';
import { createIngest, type Ingest } from './ingest';
import { PresenceSampler, type SamplerOptions } from './ingest/presence-sampler';
import { LogWriter } from './logs';
import { installRequestMetrics, registerObserveRoutes } from './observe';
import { installRequestId, loggerOptions } from './observe/logging';
import { Metrics } from './observe/metrics';
import { registerModules } from './modules';
import { type TenantPurgeOptions, TenantPurges } from './modules/blade-system/access/tenant-purge';
import { sharedStore } from './modules/blade-auth/throttle';
import { type Platform, repositoryCache } from './platform';
import { type Push, startPush } from './push';
import { type Realtime, startRealtime } from './realtime';
import { type StatsEvents, startStatsEvents, type ThrottleClock } from './realtime/stats';
import { createThird, type Third } from './third';
import { type FlowClock, type FlowHooks, Workflow } from './flow/service';
import { keepStatistics } from './flow/statistics';
import { FlowTimers } from './flow/timers';
import type { PullerOptions } from './third/puller';

export interface App {
  app: FastifyInstance;
  platform: Platform;
  realtime: Realtime;
  /** Thresholds into alarms into notifications (docs/alarms.md). */
  alarms: Alarms;
  /** Onward data to external MQTT brokers and HTTP endpoints (docs/push.md). */
  push: Push;
  /** The embedded MQTT broker; absent when MQTT_URL points at an external one. */
  broker?: Broker;
  ingest: Ingest;
  /** Third-party platforms: bindings and the periodic pull (docs/third-party.md). */
  third: Third;
  /** The home's and the data board's background work: the online-rate sampler and the throttled change event. */
  statistics: { sampler: PresenceSampler; events: StatsEvents };
  /** The workflow engine's service, its timers and the alarms it disposes of (docs/workflow.md). */
  workflow: { service: Workflow; timers: FlowTimers; disposal: Disposal };
  /** Tenants deleted for good, in batches, resumed at start (docs/data-model.md "Purging"). */
  tenantPurges: TenantPurges;
  /** Every API route with the right it declared. */
  routes: readonly DeclaredRoute[];
  /** Stops taking requests, flushes the logs and closes the database. */
  close(): Promise<void>;
}

/** Strips the optional /api prefix: BladeX deployments serve the same calls with and without it. */
const rewriteUrl = (url = '/') => (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?') ? url.slice(4) || '/' : url);

/** What a test may put in place of the real thing: seams, not settings. */
export interface AppOptions {
  /** The third-party puller's timers. */
  puller?: PullerOptions;
  /** The online-rate sampler's clock and timer. */
  sampler?: SamplerOptions;
  /** The clock of the throttled `stats.changed` event. */
  statsClock?: ThrottleClock;
  /** The workflow's clock: when timers fall due and steps are stamped. */
  flowClock?: FlowClock;
  /** The workflow's task actions between their read and their write (a test races two processes on one task). */
  flowHooks?: FlowHooks;
  /**
   * The database of another app of this test process, in place of opening one: a second process on the same SQLite
   * file, which one thread cannot hold through two connections (each would wait on the other in SQLite's busy
   * handler, blocking the thread the other needs). Closing this app leaves it to its owner.
   */
  database?: Database;
  /** The tenant purge's batches (a test stops one midway). */
  tenantPurge?: TenantPurgeOptions;
}

export async function buildApp(config: Config, options: AppOptions = {}): Promise<App> {
  const app = Fastify({
    // JSON lines with secrets redacted, one line per request with its id and tenant (docs/operations.md "Logs").
    ...loggerOptions(config.logLevel),
    rewriteUrl: (req) => rewriteUrl(req.url),
    bodyLimit: 2 * 1024 * 1024,
    // X-Forwarded-For is believed only from the configured proxies (TRUST_PROXY); anyone else could forge it.
    trustProxy: config.trustProxy.length ? config.trustProxy : false,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    frameworkErrors,
  });
  const database = options.database ?? openDatabase({
    ...config,
    onConnectionLost: (error) => app.log.warn({ err: error }, 'database: an idle connection was lost; the next query opens another'),
  });
  await migrateToLatest(database.db);
  await seed(database.db, { demo: config.demo });
  const secrets = new Secrets(config.secretsKeys);
  // Secrets stored before they were sealed, or under an earlier key, are sealed with the current one.
  await sealStoredSecrets(database.db, secrets, RESOURCES, app.log);
  if (database.dialect === 'postgres') {
    const analysed = await analyseUnanalysed(database.db);
    if (analysed.length) app.log.info({ tables: analysed }, 'database: analysed tables filled without statistics');
  }

  const events = new EventBus();
  // This process for as long as it runs: its leases and the changes it relays are told apart from a restarted one's.
  const holder = `${config.mqttClientId}#${randomBytes(4).toString('hex')}`;
  const metrics = new Metrics(events);
  const scopes = new ScopeService(database.db, events);
  const revocations = new RevocationList(database.db, events);
  await revocations.start();
  const store: KeyValueStore = config.redisUrl ? await RedisStore.connect(config.redisUrl, app.log) : new MemoryStore();
  const logs = new LogWriter(database.db, app.log);
  // Several processes on one database tell each other of their changes (docs/operations.md).
  const relay: Relay | undefined = config.redisUrl ? await startRelay(events, config.redisUrl, holder, (error) => logs.error('cluster', error, 'change relay')) : undefined;
  const deps = { db: database.db, dialect: database.dialect, scopes, events, secrets };
  const platform: Platform = {
    config,
    ...deps,
    native: database.native,
    rights: new RightsService(database.db, events),
    tokens: new TokenService(config.jwtSecret),
    revocations,
    displays: new DisplayLinks(database.db, events),
    logs,
    leases: new Leases(database.db, database.dialect, holder),
    log: app.log,
    metrics,
    store,
    signIn: new SignInGuard(database.db, config.signIn),
    social: new Map(config.socialProviders.map((p) => [p.source, new OAuth2Provider(p)])),
    repo: repositoryCache(deps),
    resources: [],
  };

  // Only the listed origins (CORS_ORIGINS) get CORS answers; by default none, so only the console's own origin calls.
  await app.register(cors, { origin: config.corsOrigins.length ? config.corsOrigins : false, credentials: true });
  await installSecurityHeaders(app, config);
  await app.register(formbody);
  // Limits are applied where they are wanted (sign-in's throttles, the call limits of server/http/limits.ts, through
  // app.createRateLimit), counted in the store.
  await app.register(rateLimit, { global: false, store: sharedStore(store) });
  await app.register(multipart, { limits: { fileSize: config.uploadLimit, files: 10 } });
  installErrorHandler(app, logs);
  closeConnectionsWhileClosing(app);
  installTranslation(app);
  installRequestId(app);
  installRequestMetrics(app, metrics);
  const routes: DeclaredRoute[] = [];
  requireDeclaredRights(app, routes);
  installAuth(app, platform);
  // After the auth gate: a limit counts calls of callers it let through, per user.
  installCallLimits(app, config.limits);
  installApiLog(app, platform);
  const ingest = createIngest(platform);
  const third = createThird(platform, (readings) => ingest.pipeline.acceptStored(readings), options.puller);
  // The broker starts last (it hands messages to everything else); modules reach it once requests arrive.
  const workflow = new Workflow(platform, options.flowClock, options.flowHooks);
  const flowTimers = new FlowTimers(platform, workflow);
  keepStatistics(platform, workflow);
  const tenantPurges = new TenantPurges(platform, app.log, options.tenantPurge);
  registerModules(app, platform, { ingest, broker: () => broker }, third, workflow, tenantPurges);
  await serveConsole(app, config.consoleDir);
  const realtime = await startRealtime(app, platform);
  const alarms = await startAlarms(platform, realtime);
  const disposal = startDisposal(platform, workflow);
  const push = startPush(platform, ingest.latest);
  const statistics = { sampler: new PresenceSampler(platform, options.sampler), events: startStatsEvents(platform, realtime, options.statsClock) };
  statistics.sampler.start();
  const broker = config.mqttUrl ? undefined : await createBroker(platform, ingest.hooks, config.mqttPort, config.host);
  // Devices are let in once every route and module is ready (Broker.listen), and the latest values written back
  // before this start are read: parsing 20,000 devices' channels took the main thread ~90 ms, under a reconnecting
  // fleet's first readings.
  if (broker)
    app.addHook('onReady', async () => {
      await ingest.latest.whenLoaded();
      await broker.listen();
    });
  if (config.mqttUrl) await ingest.connectExternal(config.mqttUrl);
  await third.puller.start();
  flowTimers.start();
  metrics.watch({
    writerDepth: () => ingest.writer.depth,
    sockets: () => realtime.io.engine.clientsCount,
    notifierBacklog: () => alarms.notifier.backlog(),
    sessionsAway: () => broker?.sessions.away ?? 0,
    mqttConnections: () => broker?.connections ?? 0,
    mqttWaiting: () => broker?.waiting ?? 0,
    mqttHeldSeconds: () => broker?.heldSeconds ?? 0,
  });
  registerObserveRoutes(app, {
    metrics,
    metricsToken: config.metricsToken,
    ready: {
      query: () => sql`select 1`.execute(database.db),
      broker: () => (config.mqttUrl ? { external: true, up: ingest.externalConnected() } : { external: false, up: broker?.listening() === true }),
      redis: config.redisUrl ? () => store.reachable() : undefined,
      writerDepth: () => ingest.writer.depth,
    },
  });
  // Purges a previous process left unfinished go on, in the background.
  void tenantPurges.resume();

  // Before the HTTP server closes (it waits for every connection): browsers and devices are told to go elsewhere, the
  // broker's data in flight commits while ingestion still runs.
  app.addHook('preClose', async () => {
    realtime.disconnectAll();
    await broker?.close();
  });
  app.addHook('onClose', async () => {
    await tenantPurges.stop();
    await third.puller.stop();
    await flowTimers.stop();
    disposal.stop();
    await disposal.settled();
    await workflow.close();
    await statistics.sampler.stop();
    statistics.events.stop();
    await ingest.stop();
    await alarms.stop();
    await push.stop();
    await realtime.close();
    metrics.close();
    revocations.stop();
    await relay?.close();
    await logs.flush();
    await store.close();
    if (!options.database) await database.close();
  });
  return { app, platform, realtime, alarms, push, broker, ingest, third, statistics, workflow: { service: workflow, timers: flowTimers, disposal }, tenantPurges, routes, close: () => app.close() };
}

/** Serves the built console at / with a fallback to index.html for its client-side routes. */
async function serveConsole(app: FastifyInstance, dir: string): Promise<void> {
  const hasConsole = existsSync(join(dir, 'index.html'));
  if (hasConsole) await app.register(fastifyStatic, { root: dir, wildcard: false, index: 'index.html' });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const wantsPage = request.method === 'GET' && !API_PATH.test(path) && (request.headers.accept ?? '').includes('text/html');
    if (hasConsole && wantsPage) return reply.type('text/html').sendFile('index.html');
    const otherMethod = (['GET', 'POST', 'PUT', 'DELETE'] as const).some(
      (method) => method !== request.method && app.hasRoute({ url: path, method }),
    );
    if (otherMethod) return reply.code(405).send(failure(405, MESSAGES.methodNotAllowed));
    return reply.code(404).send(failure(404, MESSAGES.notFound));
  });
}
