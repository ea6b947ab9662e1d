import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { secretsKeysFrom } from './auth/secrets';
import { DEFAULT_SIGN_IN_RULES, DEVICE_CREDENTIAL_RULES, type DeviceCredentialRules, type SignInRules } from './auth/sign-in-rules';
import type { OAuth2ProviderConfig } from './auth/social';
import { type CallLimits, callLimitsFrom } from './http/limits';
import { allowedRanges, parseCidr } from './net/addresses';
import type { OutboundConfig } from './net/outbound';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

/** Everything the platform reads from its environment, resolved once at start. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** UPLOAD_DIR: where attachments stored locally live; the processes of a deployment share one (a volume). */
  uploadDir: string;
  /** postgres://… switches the store to PostgreSQL; undefined means SQLite under dataDir. */
  databaseUrl?: string;
  mqttPort: number;
  /** An external broker to use instead of the embedded one. */
  mqttUrl?: string;
  /** With mqttUrl: this process's MQTT client id prefix, stable across restarts so its session resumes. */
  mqttClientId: string;
  /**
   * With mqttUrl: the shared-subscription group of the processes that ingest together (empty: every process receives
   * every message, for brokers without `$share`).
   */
  mqttShareGroup: string;
  redisUrl?: string;
  jwtSecret: string;
  /**
   * The bearer token /metrics asks for (METRICS_TOKEN; else DATA_DIR/metrics-token, generated there once): only an
   * operator's scraper reads the figures (docs/operations.md "Observability").
   */
  metricsToken: string;
  /**
   * SECRETS_KEY: the AES-256 keys that seal the secrets kept to connect elsewhere (server/auth/secrets.ts); the first
   * seals, every one opens. Generated once into DATA_DIR/secrets-key when the environment gives none.
   */
  secretsKeys: Buffer[];
  logLevel: LogLevel;
  /** Directory of the built console; served at / when present. */
  consoleDir: string;
  /** Largest upload accepted by put-file, in bytes. */
  uploadLimit: number;
  /** DEVICE_OFFLINE_AFTER (seconds): a device heard of only through its data is offline after this much silence. */
  offlineAfterMs: number;
  /**
   * MQTT_SESSION_EXPIRY (seconds): the embedded broker drops the persistent session (clean session off) of a client
   * gone this long — its subscriptions and the messages queued for it.
   */
  mqttSessionExpiryMs: number;
  /**
   * MQTT_CONNECT_RATE: new connections the embedded broker lets in per second, evenly (server/ingest/admission.ts);
   * those beyond wait their turn. 0: no limit.
   */
  mqttConnectRate: number;
  /** ALARM_REMINDER_CHECK (seconds): how often open alarms are looked at for a reminder due; a reminder is at most this late. */
  reminderCheckMs: number;
  /** FLOW_THREADS: threads that run workflow engine steps (server/flow/engine-pool.ts); 0 runs them on the main thread. */
  flowThreads: number;
  /** DEMO=1 (what `npm start` sets): seed the demo's life too — a week of history, thresholds, alarms (server/db/seed.ts). */
  demo: boolean;
  /** List exports: most rows one writes, rows read per query (EXPORT_LIMITS); not from the environment, tests lower them. */
  exports: ExportLimits;
  /** Third-party logins (SOCIAL_PROVIDERS, a JSON list of OAuth 2 providers). */
  socialProviders: OAuth2ProviderConfig[];
  /** What the addresses tenants configure (push, third-party, webhooks, SMTP, SMS, S3) may reach (server/net/outbound.ts). */
  outbound: OutboundConfig;
  /**
   * TRUST_PROXY: the reverse proxies (addresses, CIDR ranges or proxy-addr's `loopback`, `linklocal`, `uniquelocal`)
   * whose X-Forwarded-For is believed. Empty: the peer address is the client's, a forged header changes nothing.
   */
  trustProxy: string[];
  /** Throttles, captcha and lock-out of sign-in (docs/sign-in.md); not from the environment, tests relax them. */
  signIn: SignInRules;
  /** A device's CONNECT to the embedded broker: lock-out, refusal delay, slow checks at once (docs/mqtt.md "Credentials"). */
  deviceSignIn: DeviceCredentialRules;
  /**
   * Rate limits of costly and public calls (server/http/limits.ts, docs/security.md): the table's values, changed by
   * CALL_LIMITS; tests lower or relax them here.
   */
  limits: CallLimits;
  /**
   * CORS_ORIGINS: the other origins (`https://ops.example.com`) whose pages may call the API and socket.io from a
   * browser. Empty (the default): only the console's own origin, which needs no CORS.
   */
  corsOrigins: string[];
}

type Env = Record<string, string | undefined>;

export interface ExportLimits {
  /** Most rows one list export writes: a larger list is refused, the caller narrows its filters (server/http/export.ts). */
  maxRows: number;
  /** Rows read per query: what one export holds in memory at a time. */
  pageSize: number;
}

/**
 * New MQTT connections let in per second by default, after the slow start (server/ingest/admission.ts): the rate at
 * which a 2-core process takes a returning fleet's CONNECTs and first readings with the devices already back
 * acknowledged at p50 9-20 ms, p99 41-82 ms (machine line ~76k; unpaced, ~1 s), and 20,000 devices let in within
 * ~9.5 s, above the 2,000/s the connection target asks with the slow start's cost (docs/benchmarks.md "Connections,
 * twenty-ninth session" and "forty-first session").
 */
export const MQTT_CONNECT_RATE = 2_400;

export const EXPORT_LIMITS: ExportLimits = { maxRows: 100_000, pageSize: 1000 };

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function portFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`${name} must be a port number, got "${value}"`);
  return port;
}

function secondsFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < 1) throw new Error(`${name} must be a whole number of seconds, got "${value}"`);
  return seconds;
}

/** A whole number, 0 included. */
function countFrom(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const count = Number(value);
  if (!Number.isInteger(count) || count < 0) throw new Error(`${name} must be a whole number, got "${value}"`);
  return count;
}

function flagFrom(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === '0' || /^false$/i.test(value)) return false;
  if (value === '1' || /^true$/i.test(value)) return true;
  throw new Error(`${name} must be 1 or 0, got "${value}"`);
}

/** OUTBOUND_ALLOW_PRIVATE and OUTBOUND_ALLOW (comma-separated CIDR ranges), checked here so a typo stops the start. */
function outboundFrom(env: Env): OutboundConfig {
  const allow = (env.OUTBOUND_ALLOW ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  allowedRanges(allow);
  return { allowPrivate: flagFrom(env.OUTBOUND_ALLOW_PRIVATE, 'OUTBOUND_ALLOW_PRIVATE'), allow };
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** TRUST_PROXY, checked here so a typo stops the start instead of trusting nobody (or everybody). */
function trustProxyFrom(env: Env): string[] {
  const list = (env.TRUST_PROXY ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  for (const entry of list) {
    if (!PROXY_NAMES.has(entry) && !parseCidr(entry)) throw new Error(`TRUST_PROXY: "${entry}" is not an address, a CIDR range or loopback/linklocal/uniquelocal`);
  }
  return list;
}

/** CORS_ORIGINS, checked here: each entry must be an origin (scheme, host, port), a typo stops the start. */
function corsOriginsFrom(env: Env): string[] {
  return (env.CORS_ORIGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      let url: URL | undefined;
      try {
        url = new URL(entry);
      } catch {
        url = undefined;
      }
      const bare = url && ['http:', 'https:'].includes(url.protocol) && url.pathname === '/' && !url.search && !url.hash && !url.username && !entry.endsWith('#');
      if (!url || !bare) throw new Error(`CORS_ORIGINS: "${entry}" is not an origin such as https://ops.example.com`);
      return url.origin;
    });
}

/** The JWT secret comes from the environment, else from DATA_DIR/jwt-secret, else is generated there once. */
function jwtSecretFrom(env: Env, dataDir: string): string {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/** The metrics token comes from the environment, else from DATA_DIR/metrics-token, else is generated there once. */
function metricsTokenFrom(env: Env, dataDir: string): string {
  if (env.METRICS_TOKEN) return env.METRICS_TOKEN;
  const file = join(dataDir, 'metrics-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const token = randomBytes(32).toString('base64url');
  writeFileSync(file, token, { mode: 0o600 });
  return token;
}

export function loadConfig(env: Env = process.env, overrides: Partial<Config> = {}): Config {
  const dataDir = resolve(overrides.dataDir ?? env.DATA_DIR ?? './data');
  mkdirSync(dataDir, { recursive: true });
  const logLevel = (env.LOG_LEVEL ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) throw new Error('DATABASE_URL must be a postgres:// URL');
  return {
    port: portFrom(env.PORT, 8080, 'PORT'),
    host: env.HOST || '0.0.0.0',
    dataDir,
    uploadDir: resolve(overrides.uploadDir ?? env.UPLOAD_DIR ?? join(dataDir, 'upload')),
    databaseUrl,
    mqttPort: portFrom(env.MQTT_PORT, 1883, 'MQTT_PORT'),
    mqttUrl: env.MQTT_URL || undefined,
    // Host and HTTP port: stable across restarts, distinct between the processes of one host.
    mqttClientId: env.MQTT_CLIENT_ID || `vigil-${hostname()}-${env.PORT ?? 8080}`,
    mqttShareGroup: env.MQTT_SHARE_GROUP ?? 'vigil',
    redisUrl: env.REDIS_URL || undefined,
    jwtSecret: overrides.jwtSecret ?? jwtSecretFrom(env, dataDir),
    metricsToken: overrides.metricsToken ?? metricsTokenFrom(env, dataDir),
    secretsKeys: overrides.secretsKeys ?? secretsKeysFrom(env, dataDir),
    logLevel,
    consoleDir: resolve(env.CONSOLE_DIR ?? 'dist'),
    uploadLimit: Number(env.UPLOAD_LIMIT ?? 20 * 1024 * 1024),
    flowThreads: threadsFrom(env.FLOW_THREADS),
    offlineAfterMs: secondsFrom(env.DEVICE_OFFLINE_AFTER, 600, 'DEVICE_OFFLINE_AFTER') * 1000,
    reminderCheckMs: secondsFrom(env.ALARM_REMINDER_CHECK, 30, 'ALARM_REMINDER_CHECK') * 1000,
    mqttSessionExpiryMs: secondsFrom(env.MQTT_SESSION_EXPIRY, 7200, 'MQTT_SESSION_EXPIRY') * 1000,
    mqttConnectRate: countFrom(env.MQTT_CONNECT_RATE, MQTT_CONNECT_RATE, 'MQTT_CONNECT_RATE'),
    demo: flagFrom(env.DEMO, 'DEMO'),
    exports: EXPORT_LIMITS,
    socialProviders: env.SOCIAL_PROVIDERS ? (JSON.parse(env.SOCIAL_PROVIDERS) as OAuth2ProviderConfig[]) : [],
    outbound: outboundFrom(env),
    trustProxy: trustProxyFrom(env),
    signIn: DEFAULT_SIGN_IN_RULES,
    deviceSignIn: DEVICE_CREDENTIAL_RULES,
    limits: callLimitsFrom(env.CALL_LIMITS),
    corsOrigins: corsOriginsFrom(env),
    ...overrides,
  };
}

/**
 * Threads for workflow steps: one per core, FLOW_THREADS overrides. The main thread mostly waits on the database while
 * steps run (bench:workflow: 2 threads on 2 cores complete more tasks a second than 1), so it is not given a core.
 */
function threadsFrom(value: string | undefined): number {
  if (value === undefined || value === '') return availableParallelism();
  const threads = Number(value);
  if (!Number.isInteger(threads) || threads < 0 || threads > 64) throw new Error(`FLOW_THREADS must be a whole number from 0 to 64, not ${value}`);
  return threads;
}
