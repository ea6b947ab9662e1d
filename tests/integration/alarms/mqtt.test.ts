import mqtt, { type MqttClient } from 'mqtt';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, expect, it } from 'vitest';
import { DEMO_DEVICE_PASSWORD } from '../../../server/db/seed/monitoring';
import type { StoredReading } from '../../../server/ingest/types';
import { expectOk, type PageData, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { DEMO, demoId, X } from '../monitoring/support';

/** End to end: a demo device publishes over real MQTT, the pipeline stores the reading, the alarm reaches a socket. */
onEveryStore('an alarm from a device message over MQTT', { signIn: ['demo'] }, (ctx) => {
  let device: MqttClient | undefined;
  let socket: Socket | undefined;

  afterAll(async () => {
    socket?.close();
    await device?.endAsync(true);
  });

  it('raises the alarm and pushes it with the reading time', async () => {
    const adminId = expectOk(await ctx.demo.get<{ userId: string }>('/api/blade-auth/oauth/user-info')).userId;
    expectOk(await ctx.demo.post(`${X}/alarmnoticestrategy/submit`, { name: '全部告警', userIds: adminId, channels: 'notice' }));
    expectOk(await ctx.demo.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId: demoId('device:QJ-RAIN-01'), pointKey: 'rainfall', level1Upper: 200, level4Upper: 10 }));
    const stored: StoredReading[] = [];
    ctx.server.app.platform.events.on('readings', (batch) => stored.push(...batch));

    socket = connect(ctx.server.url, { auth: { token: ctx.demo.token }, transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      socket?.once('connect', () => resolve());
      socket?.once('connect_error', reject);
    });
    const pushed = new Promise<Row>((resolve) => socket?.once('alarm', resolve));

    device = await mqtt.connectAsync(`mqtt://127.0.0.1:${ctx.server.app.broker?.port}`, { username: 'QJ-RAIN-01', password: DEMO_DEVICE_PASSWORD, clientId: 'QJ-RAIN-01', protocolVersion: 4, reconnectPeriod: 0 });
    const ts = Date.now();
    await device.publishAsync(`vigil/${DEMO}/device/QJ-RAIN-01/data`, JSON.stringify({ ts, values: { rainfall: 500 } }), { qos: 1 });

    const payload = await pushed;
    const reading = stored.find((r) => r.deviceCode === 'QJ-RAIN-01' && r.pointKey === 'rainfall' && r.ts === ts);
    expect(reading).toBeDefined();
    expect(payload).toMatchObject({ ts, deviceCode: 'QJ-RAIN-01', pointKey: 'rainfall', alarmLevel: reading && reading.value > 200 ? 1 : 4, value: reading?.value });
    const alarms = expectOk(await ctx.demo.get<PageData>(`${X}/alarm/list`, { deviceId: demoId('device:QJ-RAIN-01') })).records;
    expect(alarms).toEqual([expect.objectContaining({ id: payload.alarmId, alarmState: 1, readingTs: ts })]);
  });
});
