import { createHmac } from 'node:crypto';
import { createServer as createHttp, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTcp, type AddressInfo } from 'node:net';
import { Aedes, type AuthenticateError } from 'aedes';
import mqtt from 'mqtt';

/** Fixtures of the push suites: an owner's MQTT broker with a real subscriber, an HTTP receiver, a dead port. */

export interface Received {
  topic: string;
  body: PushBody;
}

/** A push message as docs/push.md "Format" documents it. */
export interface PushBody {
  messageId: string;
  tenantId: string;
  test?: boolean;
  project: { id: string; code: string; name: string };
  readings: Array<{ device: string; deviceName: string | null; ts: number; time: string; values: Record<string, number> }>;
}

export interface OwnerBroker {
  url: string;
  messages: Received[];
  close(): Promise<void>;
}

/**
 * A second aedes broker on an ephemeral port acting as an owner's platform: it accepts only `username`/`password`,
 * and a real MQTT client subscribed to everything keeps what arrives.
 */
export async function startOwnerBroker(username: string, password: string): Promise<OwnerBroker> {
  const aedes = await Aedes.createBroker({
    authenticate: (_client, user, pass, done) => {
      if (user === username && pass?.toString('utf8') === password) return done(null, true);
      const error = new Error('bad username or password') as AuthenticateError;
      error.returnCode = 4;
      done(error, false);
    },
  });
  const server = createTcp(aedes.handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `mqtt://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const subscriber = await mqtt.connectAsync(url, { username, password, clientId: `owner-subscriber-${Date.now()}`, reconnectPeriod: 0 });
  const messages: Received[] = [];
  subscriber.on('message', (topic, payload) => messages.push({ topic, body: JSON.parse(payload.toString('utf8')) as PushBody }));
  await subscriber.subscribeAsync('#', { qos: 1 });
  return {
    url,
    messages,
    close: async () => {
      await subscriber.endAsync(true);
      await new Promise<void>((resolve) => aedes.close(() => server.close(() => resolve())));
    },
  };
}

export interface Posted {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  body: PushBody;
}

export interface Receiver {
  url: string;
  posted: Posted[];
  /** The status answered from now on (200 by default). */
  answer: number;
  /** While set, answers wait for it: a batch stays in flight until the test lets it go. */
  hold?: Promise<void>;
  close(): Promise<void>;
}

/** A real node:http server that keeps every POST and answers with `answer`. */
export async function startReceiver(): Promise<Receiver> {
  const receiver = { posted: [] as Posted[], answer: 200 } as Receiver;
  const server: Server = createHttp((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      receiver.posted.push({ path: request.url ?? '', headers: request.headers, raw, body: JSON.parse(raw) as PushBody });
      void Promise.resolve(receiver.hold).then(() =>
        response.writeHead(receiver.answer, { 'content-type': 'application/json' }).end(receiver.answer < 300 ? '{"ok":true}' : '{"error":"refused"}'),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/push`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

/** A local port nothing listens on (connections are refused). */
export async function deadPort(): Promise<number> {
  const server = createTcp();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The signature docs/push.md documents: HMAC-SHA256 over `<timestamp>.<body>`, hex. */
export const signatureOf = (secret: string, timestamp: string, raw: string) => `sha256=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}`;
