import mqtt, { type MqttClient } from 'mqtt';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { DISPLAY_HEADER, SCREEN_EVENTS, type ScreenAlarm, type ScreenPresence, type ScreenReading } from '../../../resources/wire/screen';
import type { ApiClient, Envelope, Params, Reply } from '../../support/client';
import { expectOk, type Row } from '../../support/envelope';
import type { TestServer } from '../../support/server';
import { X } from '../monitoring/support';

/**
 * Fixtures of the wall-screen suites (docs/wall-screen.md): a monitored structure written through the real API, display
 * links made through the manager's calls, and a wall screen's two channels — HTTP with only the display header, and a
 * socket.io client authenticated with `auth.display` that records every screen event.
 */

export const DEVICE_PASSWORD = 'Screen#Device2026';

/** Two projects of one tenant, as an administrator sets them up through the API. */
export interface Structure {
  /** Monitor points M1 (device A1, whole) and M2 (device A2, channel crack); A2's crack has a threshold. */
  projectA: string;
  /** No monitor points: its device B1 stands for itself on the screen. */
  projectB: string;
  /** Not on any link: the screens must never see it. */
  projectC: string;
  devices: Record<'A1' | 'A2' | 'B1' | 'C1', { id: string; code: string }>;
  points: Record<'M1' | 'M2', string>;
}

const save = async (api: ApiClient, resource: string, body: Record<string, unknown>): Promise<Row> => expectOk(await api.post<Row>(`${X}/${resource}/submit`, body));

async function deviceWithPoints(api: ApiClient, projectId: string, code: string, points: Array<[key: string, name: string, unit: string]>): Promise<{ id: string; code: string }> {
  const device = await save(api, 'device', { code, name: `设备 ${code}`, projectId });
  for (const [i, [pointKey, name, unit]] of points.entries()) await save(api, 'devicepoint', { deviceId: device.id, pointKey, name, unit, precision: 3, sort: i });
  // Its broker identity: the device publishes as itself.
  await save(api, 'mqttuser', { username: code, password: DEVICE_PASSWORD, clientType: 1, clientId: code });
  return { id: device.id, code };
}

/** Writes the structure of `tag` (unique per suite: codes are unique on the platform) through `api`. */
export async function buildStructure(api: ApiClient, tag: string): Promise<Structure> {
  const project = async (name: string, code: string) => (await save(api, 'project', { name, code, structureType: 1 })).id;
  const projectA = await project(`大屏桥 ${tag}`, `SCR-A-${tag}`);
  const projectB = await project(`大屏坡 ${tag}`, `SCR-B-${tag}`);
  const projectC = await project(`大屏隧道 ${tag}`, `SCR-C-${tag}`);
  const A1 = await deviceWithPoints(api, projectA, `SA1-${tag}`, [['tilt_x', 'X向倾角', '°'], ['tilt_y', 'Y向倾角', '°']]);
  const A2 = await deviceWithPoints(api, projectA, `SA2-${tag}`, [['crack', '裂缝宽度', 'mm']]);
  const B1 = await deviceWithPoints(api, projectB, `SB1-${tag}`, [['settlement', '沉降', 'mm']]);
  const C1 = await deviceWithPoints(api, projectC, `SC1-${tag}`, [['rainfall', '雨量', 'mm']]);
  const M1 = (await save(api, 'monitorpoint', { projectId: projectA, name: '塔顶倾角', code: `M1-${tag}`, sort: 1 })).id;
  const M2 = (await save(api, 'monitorpoint', { projectId: projectA, name: '梁底裂缝', code: `M2-${tag}`, sort: 2 })).id;
  await save(api, 'pointrelationdevice', { monitorPointId: M1, deviceId: A1.id });
  await save(api, 'pointrelationdevice', { monitorPointId: M2, deviceId: A2.id, pointKey: 'crack' });
  await save(api, 'devicethreshold', { targetType: 1, deviceId: A2.id, pointKey: 'crack', level2Upper: 5, level4Upper: 1 });
  return { projectA, projectB, projectC, devices: { A1, A2, B1, C1 }, points: { M1, M2 } };
}

/** A new link: its row as the create call answered it, the secret included (the only time it is shown). */
export async function createLink(api: ApiClient, body: Record<string, unknown>): Promise<Row & { secret: string }> {
  return expectOk(await api.post<Row & { secret: string }>(`${X}/displaylink/submit`, { name: '监控室大屏', layout: 'structure', rotateSeconds: 30, ...body }));
}

/** A wall screen's HTTP call: nothing but the display header (no client, no token, no language). */
export async function displayCall<T = unknown>(server: Pick<TestServer, 'url'>, secret: string | undefined, path: string, query: Params = {}, method = 'GET'): Promise<Reply<Envelope<T>>> {
  const url = new URL(path, server.url);
  for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
  const headers: Record<string, string> = secret === undefined ? {} : { [DISPLAY_HEADER]: secret };
  if (method !== 'GET') headers['content-type'] = 'application/json';
  const response = await fetch(url, { method, headers, body: method === 'GET' ? undefined : '{}' });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: an image, kept as text
  }
  return { status: response.status, body: body as Envelope<T> };
}

/** A wall screen's socket and what it received, in order. */
export interface ScreenSocket {
  socket: Socket;
  readings: ScreenReading[][];
  alarms: ScreenAlarm[];
  presence: ScreenPresence[];
  /** Every screen event by name, in arrival order. */
  events: string[];
  /** Resolves with the event's payload the next time it arrives. */
  next<T = unknown>(event: string): Promise<T>;
  /** Resolves when the server closed the connection (socket.io's `io server disconnect`). */
  closed: Promise<string>;
}

/** Connects as a wall screen; rejects with the handshake's refusal. */
export async function screenSocket(server: Pick<TestServer, 'url'>, secret: string, sockets: Socket[]): Promise<ScreenSocket> {
  const socket = connectSocket(server.url, { auth: { display: secret }, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  const screen: ScreenSocket = {
    socket,
    readings: [],
    alarms: [],
    presence: [],
    events: [],
    next: (event) => new Promise((resolve) => socket.once(event, resolve)),
    closed: new Promise((resolve) => socket.on('disconnect', (reason) => resolve(reason))),
  };
  socket.on(SCREEN_EVENTS.readings, (batch: ScreenReading[]) => screen.readings.push(batch));
  socket.on(SCREEN_EVENTS.alarm, (alarm: ScreenAlarm) => screen.alarms.push(alarm));
  socket.on(SCREEN_EVENTS.presence, (change: ScreenPresence) => screen.presence.push(change));
  for (const event of Object.values(SCREEN_EVENTS)) socket.on(event, () => screen.events.push(event));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return screen;
}

/** The handshake's refusal of a secret, as the client sees it. */
export function refusedHandshake(server: Pick<TestServer, 'url'>, auth: Record<string, unknown>, sockets: Socket[]): Promise<string> {
  const socket = connectSocket(server.url, { auth, transports: ['websocket'], reconnection: false });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('the handshake was accepted')));
    socket.once('connect_error', (error) => resolve(error.message));
  });
}

/** A device of the structure connected to the embedded broker as itself. */
export async function deviceClient(server: TestServer, code: string, clients: MqttClient[]): Promise<MqttClient> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.app.broker?.port}`, { username: code, password: DEVICE_PASSWORD, clientId: code, protocolVersion: 4, reconnectPeriod: 0 });
  clients.push(client);
  return client;
}

/** Publishes one reading and resolves once it is stored (QoS 1 is acknowledged after the commit). */
export async function publish(client: MqttClient, tenantId: string, code: string, ts: number, values: Record<string, number>): Promise<void> {
  await client.publishAsync(`vigil/${tenantId}/device/${code}/data`, JSON.stringify({ ts, values }), { qos: 1 });
}
