import mqtt, { type MqttClient } from 'mqtt';
import { DEMO_DEVICE_PASSWORD, DEMO_GATEWAY_PASSWORD } from '../../../server/db/seed/monitoring';
import type { TestServer } from '../../support/server';
import { demoId } from '../monitoring/support';

/** Fixtures of the device-data suites: demo ids, MQTT clients acting as devices. */

export const BRIDGE = demoId('project:bridge');
export const GATEWAY = demoId('gateway:gnss-base');
export const deviceOf = (code: string) => demoId(`device:${code}`);

/** A command as a device receives it. */
export interface Received {
  id: string;
  command: string;
  params: Record<string, unknown>;
  ts: number;
}

/** An MQTT client acting as a demo device or gateway: connected, subscribed to its command topic, keeping what it got. */
export interface FakeDevice {
  client: MqttClient;
  received: Received[];
  reply(body: Record<string, unknown>): Promise<void>;
  publish(body: unknown): Promise<void>;
  close(): Promise<void>;
}

export async function connectAs(server: TestServer, kind: 'device' | 'gateway', code: string, password = kind === 'device' ? DEMO_DEVICE_PASSWORD : DEMO_GATEWAY_PASSWORD): Promise<FakeDevice> {
  const client = mqtt.connect(`mqtt://127.0.0.1:${server.app.broker?.port}`, { clientId: code, username: code, password, protocolVersion: 4, reconnectPeriod: 0 });
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });
  const base = `vigil/100001/${kind}/${code}`;
  const received: Received[] = [];
  client.on('message', (topic, payload) => {
    if (topic === `${base}/command`) received.push(JSON.parse(payload.toString('utf8')) as Received);
  });
  await client.subscribeAsync(`${base}/command`, { qos: 1 });
  return {
    client,
    received,
    reply: async (body) => void (await client.publishAsync(`${base}/reply`, JSON.stringify(body), { qos: 1 })),
    publish: async (body) => void (await client.publishAsync(`${base}/data`, typeof body === 'string' ? body : JSON.stringify(body), { qos: 1 })),
    close: () => client.endAsync(true),
  };
}

/** Answers every command it receives with `answer(command)` (ok true, the result). */
export function answering(device: FakeDevice, answer: (command: Received) => unknown = (c) => ({ done: c.command })): void {
  device.client.on('message', (topic, payload) => {
    if (!topic.endsWith('/command')) return;
    const command = JSON.parse(payload.toString('utf8')) as Received;
    void device.reply({ id: command.id, ok: true, result: answer(command) });
  });
}

/** Local epoch ms of a `yyyy-MM-dd HH:mm:ss` time (the server's time zone is the test process's). */
export const at = (text: string) => {
  const [day, clock = '00:00:00'] = text.split(' ');
  const [y, m, d] = day.split('-').map(Number);
  const [hh, mm, ss] = clock.split(':').map(Number);
  return new Date(y, m - 1, d, hh, mm, ss ?? 0).getTime();
};
