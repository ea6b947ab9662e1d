import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PG_ADMIN_URL } from '../../support/databases';
import { freePort } from '../../support/process';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';

/**
 * /health and /ready over real HTTP, on both stores, with a real Redis (a redis-server of the test's own, on a free
 * port) that goes away and comes back, and the embedded broker closed as at shutdown.
 */

const hasRedis = spawnSync('redis-server', ['--version']).status === 0;
if (!hasRedis) console.warn('redis-server is not installed: the readiness suite is skipped.');

const REDIS_PORT = await freePort();
let redis: ChildProcess | undefined;

/** Resolves once the port accepts connections. */
const accepting = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

async function startRedis(): Promise<void> {
  redis = spawn('redis-server', ['--port', String(REDIS_PORT), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await until(() => accepting(REDIS_PORT), 10_000, 'redis-server listening');
}

async function stopRedis(): Promise<void> {
  const child = redis;
  redis = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

interface Ready {
  status: string;
  checks: Record<string, string>;
  reasons?: string[];
}

describe.runIf(hasRedis)('operations probes', () => {
  // File level: Redis is up before each store's server starts (onEveryStore starts it in its own beforeAll).
  beforeAll(startRedis);
  afterAll(stopRedis);

  onEveryStore('health and readiness', { config: { redisUrl: `redis://127.0.0.1:${REDIS_PORT}` } }, (ctx) => {
    const ready = async (headers: Record<string, string> = {}) => {
      const response = await fetch(`${ctx.server.url}/ready`, { headers });
      return { status: response.status, body: (await response.json()) as Ready };
    };

    it('/health answers 200 to anyone, without credentials', async () => {
      const response = await fetch(`${ctx.server.url}/health`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: 'ok' });
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('/ready answers 200 with every dependency checked', async () => {
      expect(await ready()).toEqual({ status: 200, body: { status: 'ok', checks: { database: 'ok', mqtt: 'ok', redis: 'ok', writer: 'ok' } } });
    });

    it('/ready answers 503 naming Redis while it is down, and 200 once it is back', async () => {
      await stopRedis();
      const down = await until(async () => {
        const reply = await ready();
        return reply.status === 503 && reply;
      }, 10_000, '/ready to fail');
      expect(down.body).toEqual({ status: 'unavailable', checks: { database: 'ok', mqtt: 'ok', redis: 'failed', writer: 'ok' }, reasons: ['Redis 无法访问'] });
      expect((await ready({ 'accept-language': 'en' })).body.reasons).toEqual(['Redis cannot be reached']);
      // The process lives on: only readiness fails.
      expect((await fetch(`${ctx.server.url}/health`)).status).toBe(200);

      await startRedis();
      await until(async () => (await ready()).status === 200, 15_000, '/ready to recover');
      expect((await ready()).body.checks.redis).toBe('ok');
    });

    // A PostgreSQL that refuses the server's connections (as while it restarts): its open ones ended, new ones refused.
    it.runIf(ctx.store === 'postgres')('/ready answers 503 naming the database while it refuses connections, and 200 once it takes them again', async () => {
      const name = new URL(ctx.server.storage.databaseUrl ?? '').pathname.slice(1);
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      try {
        await admin.query(`alter database ${name} allow_connections false`);
        await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
        const down = await until(async () => {
          const reply = await ready();
          return reply.status === 503 && reply;
        }, 10_000, '/ready to fail');
        expect(down.body).toEqual({ status: 'unavailable', checks: { database: 'failed', mqtt: 'ok', redis: 'ok', writer: 'ok' }, reasons: ['数据库无法访问'] });
        expect((await fetch(`${ctx.server.url}/health`)).status).toBe(200);
      } finally {
        await admin.query(`alter database ${name} allow_connections true`);
        await admin.end();
      }
      await until(async () => (await ready()).status === 200, 15_000, '/ready to recover');
    });

    it('/ready answers 503 once the embedded broker stops listening (as at shutdown)', async () => {
      // Bounds past the test's time: with nothing in flight the close does not wait for them, and aedes' own close
      // ends it (no client left to let go).
      const broker = ctx.server.app.broker;
      await broker?.close(10 * 60_000, 10 * 60_000);
      expect(broker?.aedes.closed).toBe(true);
      const reply = await ready();
      expect(reply).toEqual({ status: 503, body: { status: 'unavailable', checks: { database: 'ok', mqtt: 'failed', redis: 'ok', writer: 'ok' }, reasons: ['内置 MQTT 代理未在监听'] } });
    });
  });
});
