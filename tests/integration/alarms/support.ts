import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { AlarmMessage } from '../../../resources/wire/alarms';
import type { StoredReading } from '../../../server/ingest/types';
import type { ApiClient } from '../../support/client';
import { expectOk, type PageData, type Row } from '../../support/envelope';
import type { TestServer } from '../../support/server';
import { until } from '../../support/wait';
import { DEMO, demoId } from '../monitoring/support';

/** Fixtures of the alarm suites: readings as the pipeline hands them on, a local SMTP server, a webhook receiver. */

export const BRIDGE = demoId('project:bridge');

/** Sets a param of the client's tenant: edits the row of that key, or adds one. Returns the answer. */
export async function setParam(client: ApiClient, key: string, value: string) {
  const [existing] = expectOk(await client.get<PageData>('/api/blade-system/param/list', { paramKey_equal: key })).records;
  return client.post<Row>('/api/blade-system/param/submit', { ...(existing ? { id: existing.id } : {}), paramName: key, paramKey: key, paramValue: value });
}

/** An alarm's message as the sender hands it to a channel, for a tenant. */
export const alarmMessage = (tenantId: string): AlarmMessage => ({
  alarmId: '1', tenantId, projectId: null, deviceId: '1', deviceCode: 'QJ-TH-01', pointKey: 'temperature', alarmLevel: 2, levelName: '橙色',
  alarmType: 1, alarmState: 0, title: '温度告警', content: '温度 55', value: 55, limitValue: 50, unit: '℃', ts: Date.now(), time: '2026-01-01 00:00:00',
  revision: 1, round: 0, href: '/xinde/alarm?id=1',
});

/** A stored reading of a demo device channel, as the ingestion pipeline emits it. */
export function reading(code: string, pointKey: string, value: number, ts = Date.now()): StoredReading {
  return { tenantId: DEMO, projectId: BRIDGE, deviceId: demoId(`device:${code}`), deviceCode: code, pointKey, ts, value, raw: value };
}

/** Emits batches on the event bus (the pipeline's `readings` event) and waits until the engine judged them. */
export async function emit(server: TestServer, ...batches: StoredReading[][]): Promise<void> {
  for (const batch of batches) server.app.platform.events.emit('readings', batch);
  await server.app.alarms.engine.idle();
}

/** Waits until an alarm's `count` deliveries are each sent or given up, and the sender is idle. */
export async function deliveriesSettled(server: TestServer, alarmId: string, count: number): Promise<void> {
  const db = server.app.platform.db;
  await until(async () => {
    const rows = await db.selectFrom('wit_alarm_delivery').select('state').where('alarmId', '=', alarmId).execute();
    return rows.length === count && rows.every((r) => [1, 2].includes(Number(r.state)));
  }, 10_000, `the ${count} deliveries to settle`);
  await server.app.alarms.idle();
}

export interface Mail {
  to: string;
  raw: string;
}

/** A local SMTP server that keeps every message it is given and counts the connections made to it. */
export async function startSmtp(): Promise<{ port: number; mails: Mail[]; connections(): number; close(): Promise<void> }> {
  const mails: Mail[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, mails, connections: () => connections, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export interface Receiver {
  url: string;
  bodies: unknown[];
  types: string[];
  /** Resolves once the first post has arrived. */
  arrived: Promise<void>;
  /** Lets a `held` receiver answer (what it holds, and every post after). */
  release(): void;
  close(): Promise<void>;
}

/**
 * A local HTTP receiver that keeps every JSON body posted to it and answers each with `answer`; a `held` one answers
 * only once released, keeping a delivery under way for as long as a test needs.
 */
export async function startReceiver(answer = { status: 200, body: '{"ok":true}' }, { held = false } = {}): Promise<Receiver> {
  const bodies: unknown[] = [];
  const types: string[] = [];
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => {
    arrive = resolve;
  });
  let release = () => {};
  const released = held ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      types.push(String(request.headers['content-type']));
      bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      arrive();
      void released.then(() => response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}/hooks/alarm`, bodies, types, arrived, release: () => release(), close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A port where a TCP server accepts connections and never says a word (an SMTP server that hangs). */
export async function startSilentServer(): Promise<{ port: number; close(): Promise<void> }> {
  const { createServer: createTcp } = await import('node:net');
  const sockets = new Set<import('node:net').Socket>();
  const server = createTcp((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
