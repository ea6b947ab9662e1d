import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { startMosquitto, startRedis } from '../../tests/support/services';
import { provisionFleet, startLoad } from '../bench/support/fleet';
import { startServerProcess } from '../bench/support/server-process';
const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/postgres' }); await admin.connect();
const name = `vigil_mem_${Date.now()}`; await admin.query(`create database ${name}`);
const databaseUrl = `postgres://postgres@127.0.0.1:5432/${name}`;
const [redis, mosquitto] = await Promise.all([startRedis(), startMosquitto()]);
const fleet = await provisionFleet(mkdtempSync(join(tmpdir(), 'm-')), databaseUrl, 20);
const withRedis = process.argv[2] !== 'noredis';
const server = await startServerProcess({ DATA_DIR: mkdtempSync(join(tmpdir(), 'm-')), DATABASE_URL: databaseUrl, MQTT_URL: mosquitto.url, ...(withRedis ? { REDIS_URL: redis.url } : {}), MQTT_CLIENT_ID: 'mem-p0', METRICS_TOKEN: 'tok', JWT_SECRET: 'x'.repeat(40), LOG_LEVEL: 'info' });
const load = await startLoad(mosquitto.url, fleet, 4, 2);
const metric = async (n: string) => { const t = await (await fetch(`${server.url}/metrics`, { headers: { authorization: 'Bearer tok' } })).text(); return /^(\S+) (\S+)$/m.exec(t.split('\n').filter(l => l.startsWith(n + ' ')).join('\n'))?.[2]; };
for (let i = 0; i < 5; i++) {
  await new Promise(r => setTimeout(r, 2000));
  const rss = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1];
  console.log(`${(i + 1) * 2}s rss ${Math.round(Number(rss) / 1024)} MB points ${await metric('vigil_ingest_points_total')} queue ${await metric('vigil_ingest_writer_queue_depth')}`);
}
const report = await load.stop(); console.log(report);
await server.stop(); await redis.stop(); await mosquitto.stop(); await admin.query(`drop database ${name} with (force)`); await admin.end();
