import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectOk } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { X } from '../monitoring/support';
import { deviceOf, GATEWAY } from './support';

/** `npm run simulate` as a child process against a test server's broker: its data arrives, its devices answer. */
onEveryStore('device simulator', { signIn: ['demo'] }, (ctx) => {
  let simulator: ChildProcess;
  let output = '';
  let exited: Promise<number | null>;

  beforeAll(async () => {
    simulator = spawn(process.execPath, ['--import', 'tsx', 'tools/simulator/run.ts', '--url', `mqtt://127.0.0.1:${ctx.server.app.broker?.port}`, '--interval', '200', '--speed', '3600', '--duration', '60', '--seed', '42'], {
      cwd: process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    simulator.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    simulator.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    exited = new Promise((resolve) => simulator.once('exit', (code) => resolve(code)));
  });
  afterAll(async () => {
    if (simulator.exitCode === null) simulator.kill('SIGTERM');
    await exited;
  });

  it('connects its devices and gateway, answers commands, and its readings are stored', async () => {
    const db = ctx.server.app.platform.db;
    // The devices answer commands while they run.
    await until(() => output.includes('connected'), 15_000, `the simulator to connect: ${output}`);
    const direct = await until(async () => {
      const reply = expectOk(await ctx.demo.post<{ state: number; result: { collected: number } }>(`${X}/device/sendCommands`, { deviceId: deviceOf('QJ-CRACK-01'), command: 'collect', wait: 3 }));
      return reply.state === 1 ? reply : undefined;
    }, 10_000, 'a reply from the simulated crack meter');
    expect(direct.result).toEqual({ collected: 1 });
    const read = expectOk(await ctx.demo.post<{ state: number; result: { values: Record<string, number> } }>(`${X}/gateway/setGatewayPoint`, { gatewayId: GATEWAY, pointKey: 'interval', isGet: 1 }));
    expect(read.state).toBe(1);
    expect(read.result.values.interval).toBeCloseTo(0.2);
    // Asked again while unanswered in time (state 2): on a loaded machine the child process may answer late.
    const unknown = await until(async () => {
      const reply = expectOk(await ctx.demo.post<{ state: number; error: string }>(`${X}/device/sendCommands`, { deviceId: deviceOf('QJ-TH-01'), command: 'selfDestruct', wait: 3 }));
      return reply.state === 2 ? undefined : reply;
    }, 15_000, 'an answer to an unknown command from the simulated thermometer');
    expect(unknown).toMatchObject({ state: 3, error: 'unknown command: selfDestruct' });

    // Stopped once it has reported every kind of reading from most devices (its --duration is only a backstop):
    // SIGTERM ends it cleanly. Nine devices: the gateway reports five, four report themselves; a dropout may silence
    // one for a while.
    const stored = () => db.selectFrom('wit_device_log').select(['deviceId', 'pointKey', 'value']).where('deviceId', 'in', db.selectFrom('wit_device').select('id').where('tenantId', '=', '100001')).execute();
    const kinds = ['tilt_x', 'crack', 'temperature', 'settlement', 'dz', 'rainfall', 'humidity'];
    const rows = await until(async () => {
      const found = await stored();
      const keys = new Set(found.map((r) => String(r.pointKey)));
      const devices = new Set(found.map((r) => String(r.deviceId)));
      return found.length >= 200 && devices.size >= 7 && kinds.every((key) => keys.has(key)) ? found : undefined;
    }, 20_000, 'readings of every kind from seven devices of the simulator');
    simulator.kill('SIGTERM');
    expect(await exited).toBe(0);
    const devices = new Set(rows.map((r) => String(r.deviceId)));
    expect(devices.has(deviceOf('QJ-HLS-01')) || devices.has(deviceOf('QJ-HLS-02'))).toBe(true);
    // Plausible values (a rare spike aside): the median humidity is a humidity.
    const humidity = rows.filter((r) => r.pointKey === 'humidity').map((r) => Number(r.value)).sort((a, b) => a - b);
    expect(humidity[Math.floor(humidity.length / 2)]).toBeGreaterThanOrEqual(20);
    expect(humidity[Math.floor(humidity.length / 2)]).toBeLessThanOrEqual(100);
    const raw = await db.selectFrom('wit_collect_data').select(['topic', 'error']).where('tenantId', '=', '100001').execute();
    expect(raw.some((r) => r.topic === 'vigil/100001/gateway/QJ-GW-01/data')).toBe(true);
    expect(raw.filter((r) => r.error !== null)).toEqual([]);
  }, 40_000);
});
