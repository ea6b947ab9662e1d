import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { io } from 'socket.io-client';
import { PASSWORD, provisionFleet, startLoad, TENANT } from '../support/fleet';
import { onEveryStore, percentile } from '../support/stores';
import { signIn, startServerProcess } from '../support/server-process';
import { describeMachine } from '../support/machine';

/**
 * Alarm latency: from a device's QoS 1 publish of a value past its threshold to the `alarm` socket event in the
 * recipient's browser session, while the ingestion benchmark's load runs. The probe device alternates a value
 * past the red bound (a new alarm) and a normal one (the alarm clears). Prints p50/p99 and checks that every raise
 * was notified exactly once. Target: p99 under 1 s.
 * Usage: npm run bench:alarms [-- --seconds 60 --gateways 40 --window 4]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const SECONDS = Number(args.get('--seconds') ?? 60);
const GATEWAYS = Number(args.get('--gateways') ?? 40);
const WINDOW = Number(args.get('--window') ?? 4);
const PROBE = 'BA-PROBE';
const CYCLE_MS = 500;

async function api(url: string, token: string, path: string, body?: unknown): Promise<{ code: number; msg: string; data: Record<string, unknown> }> {
  const response = await fetch(`${url}/api${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Basic ${Buffer.from('saber:saber_secret').toString('base64')}`, 'blade-auth': `bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const reply = (await response.json()) as { code: number; msg: string; data: Record<string, unknown> };
  if (reply.code !== 200) throw new Error(`${path}: ${reply.msg}`);
  return reply;
}

async function bench(store: string, databaseUrl?: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-alarms-'));
  const fleet = await provisionFleet(dataDir, databaseUrl, GATEWAYS, [PROBE]);
  const server = await startServerProcess({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  try {
    const token = await signIn(server.url, TENANT);
    const me = (await api(server.url, token, '/blade-auth/oauth/user-info')).data;
    const probe = (await api(server.url, token, `/wit-xinde/device/list?code_equal=${PROBE}`)).data.records as Array<{ id: string }>;
    await api(server.url, token, '/wit-xinde/devicepoint/submit', { deviceId: probe[0].id, pointKey: 'v', name: '探针' });
    await api(server.url, token, '/wit-xinde/devicethreshold/submit', { targetType: 1, deviceId: probe[0].id, pointKey: 'v', level1Upper: 100, hysteresis: 1 });
    await api(server.url, token, '/wit-xinde/alarmnoticestrategy/submit', { name: '基准', levels: '1,2,3,4', userIds: String(me.userId), channels: 'notice', repeatInterval: 0 });

    const socket = io(server.url, { auth: { token }, transports: ['websocket'] });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const sentAt = new Map<number, number>();
    const notified = new Set<number>();
    const latencies: number[] = [];
    let duplicates = 0;
    socket.on('alarm', (alarm: { ts: number | null }) => {
      const started = alarm.ts === null ? undefined : sentAt.get(alarm.ts);
      if (started === undefined || alarm.ts === null) return;
      if (notified.has(alarm.ts)) duplicates++;
      else latencies.push(performance.now() - started);
      notified.add(alarm.ts);
    });

    const device = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: PROBE, password: PASSWORD, clientId: PROBE, protocolVersion: 4 });
    const load = await startLoad(`mqtt://127.0.0.1:${server.mqttPort}`, fleet, WINDOW, 1);
    const topic = `vigil/${TENANT}/device/${PROBE}/data`;
    let raises = 0;
    const until = Date.now() + SECONDS * 1000;
    while (Date.now() < until) {
      const ts = Date.now();
      sentAt.set(ts, performance.now());
      await device.publishAsync(topic, JSON.stringify({ ts, values: { v: 150 } }), { qos: 1 });
      raises++;
      await new Promise((resolve) => setTimeout(resolve, CYCLE_MS / 2));
      await device.publishAsync(topic, JSON.stringify({ ts: ts + 1, values: { v: 0 } }), { qos: 1 });
      await new Promise((resolve) => setTimeout(resolve, CYCLE_MS / 2));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000)); // the last events
    const report = await load.stop();
    await device.endAsync();
    socket.close();
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `  ${store.padEnd(10)} alarms ${raises} raised, ${latencies.length} notified (${duplicates} duplicates)   ` +
        `p50 ${percentile(sorted, 50).toFixed(0)} ms   p99 ${percentile(sorted, 99).toFixed(0)} ms   max ${sorted.at(-1)?.toFixed(0)} ms   ` +
        `background load ${(report.points / SECONDS).toFixed(0)} points/s`,
    );
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(describeMachine());
console.log(`Alarm latency benchmark: probe device past its threshold every ${CYCLE_MS} ms, ${GATEWAYS} gateways of background load, ${SECONDS} s`);
await onEveryStore(bench);
