/**
 * Liveness and readiness (docs/operations.md "Observability"): /health says the process answers; /ready says it can do
 * its work now — the database answers a trivial query, the MQTT broker is there (the external one connected, or the
 * embedded one listening), Redis is connected when configured, and the series writer keeps up.
 */

/** Why the process is not ready (English in resources/messages-en.ts). */
export const READY_MESSAGES = {
  database: '数据库无法访问',
  externalBroker: '未连接外部 MQTT 代理',
  embeddedBroker: '内置 MQTT 代理未在监听',
  redis: 'Redis 无法访问',
  writer: '读数写入积压',
} as const;

/** Values waiting for the series writer past which the process is not ready: about a second of the benchmark's peak. */
export const WRITER_BACKLOG_LIMIT = 100_000;
/** How long the database may take to answer `select 1` before it counts as unreachable. */
export const DATABASE_TIMEOUT_MS = 2_000;

export type CheckName = 'database' | 'mqtt' | 'redis' | 'writer';
export type CheckState = 'ok' | 'failed';

/** What /ready looks at, from the parts that know. */
export interface ReadySources {
  /** A trivial query; rejects (or outlasts DATABASE_TIMEOUT_MS) when the database does not answer. */
  query(): Promise<unknown>;
  /** The MQTT side: the external broker's connection (MQTT_URL), else the embedded broker listening. */
  broker(): { external: boolean; up: boolean };
  /** Redis' connection; undefined when REDIS_URL is not set. */
  redis?: () => boolean;
  /** Values waiting for the series writer. */
  writerDepth(): number;
}

/** What was found, before it is judged. */
export interface Findings {
  database: boolean;
  broker: { external: boolean; up: boolean };
  /** undefined: no Redis configured. */
  redis?: boolean;
  writerDepth: number;
}

export interface Readiness {
  ready: boolean;
  checks: Partial<Record<CheckName, CheckState>>;
  /** One message per failed check, in Chinese (translated on the way out). */
  reasons: string[];
}

/** Judges the findings: ready when every check passes. */
export function judge(found: Findings, writerLimit = WRITER_BACKLOG_LIMIT): Readiness {
  const checks: Readiness['checks'] = {};
  const reasons: string[] = [];
  const check = (name: CheckName, ok: boolean, reason: string) => {
    checks[name] = ok ? 'ok' : 'failed';
    if (!ok) reasons.push(reason);
  };
  check('database', found.database, READY_MESSAGES.database);
  check('mqtt', found.broker.up, found.broker.external ? READY_MESSAGES.externalBroker : READY_MESSAGES.embeddedBroker);
  if (found.redis !== undefined) check('redis', found.redis, READY_MESSAGES.redis);
  check('writer', found.writerDepth < writerLimit, READY_MESSAGES.writer);
  return { ready: reasons.length === 0, checks, reasons };
}

/** Resolves true once `work` does, false when it fails or outlasts `ms`. */
async function answers(work: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      work().then(
        () => true,
        () => false,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Looks at every dependency (one query, the rest in memory) and judges. */
export async function readiness(sources: ReadySources, timeoutMs = DATABASE_TIMEOUT_MS): Promise<Readiness> {
  return judge({
    database: await answers(sources.query, timeoutMs),
    broker: sources.broker(),
    redis: sources.redis?.(),
    writerDepth: sources.writerDepth(),
  });
}
