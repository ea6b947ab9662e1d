import { createHmac } from 'node:crypto';
import type { IClientOptions, MqttClient } from 'mqtt';
import { PUSH_TYPE } from '../../resources/iot/push';
import { type OutboundGuard, refusalOf } from '../net/outbound';
import type { Outgoing } from './format';
import type { Target } from './target';

/**
 * The two transports (docs/push.md "Transports"). MQTT: one kept client per target, reconnecting in the background;
 * a QoS 1 publish resolves on the broker's PUBACK. HTTP: a POST per message with a timeout, no redirects followed.
 * Failures throw a DeliveryError saying whether trying again can help. Every connection goes through the outbound
 * guard (server/net/outbound.ts): an address on the platform's own network is refused, and not retried.
 */

export class DeliveryError extends Error {
  constructor(
    message: string,
    /** A later attempt may succeed (network, timeout, 5xx); false for a refusal that will not change (4xx). */
    readonly retry: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** How long the background reconnect of a kept client waits between tries. */
const RECONNECT_MS = 3000;
/** How much of an HTTP error answer is kept in the log. */
const ANSWER_CHARS = 300;

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DeliveryError(message, true)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** A refusal of the outbound guard as a DeliveryError: not retried, the address will not change by itself. */
function refused(error: unknown): DeliveryError | undefined {
  const refusal = refusalOf(error);
  return refusal && new DeliveryError(refusal.message, false);
}

/** An MQTT connection error: the guard's refusal, or the broker's or the network's error. */
const connectError = (error: Error | string): DeliveryError =>
  (typeof error !== 'string' && refused(error)) || new DeliveryError(`无法连接 MQTT 服务器: ${typeof error === 'string' ? error : error.message}`, true);

const messageOf = (error: unknown): string => {
  const e = error as { message?: string; cause?: { message?: string; code?: string } };
  return e?.cause?.message ?? e?.message ?? String(error);
};

function clientOptions(target: Target, reconnectPeriod: number): IClientOptions {
  return {
    clientId: target.clientId,
    username: target.username,
    password: target.password,
    connectTimeout: target.timeout,
    reconnectPeriod,
    clean: true,
    // Nothing waits in the client while it is offline: a send fails at once and the forwarder retries it.
    queueQoSZero: false,
  };
}

/** A kept connection to one target's broker. */
class MqttLink {
  readonly client: MqttClient;
  private lastError?: Error;
  lastUsed = Date.now();

  /** Throws OutboundRefused for a broker at a refused literal address. */
  constructor(
    readonly target: Target,
    guard: OutboundGuard,
  ) {
    this.client = guard.mqtt(target.brokerUrl, clientOptions(target, RECONNECT_MS));
    this.client.on('error', (error) => {
      this.lastError = error;
    });
    this.client.on('connect', () => {
      this.lastError = undefined;
    });
  }

  private connected(): Promise<void> {
    if (this.client.connected) return Promise.resolve();
    // The next (re)connection attempt decides: a refused or closed one fails the send at once, not after the timeout.
    return new Promise<void>((resolve, reject) => {
      const done = (error?: Error | string) => {
        clearTimeout(timer);
        this.client.off('connect', onConnect);
        this.client.off('error', onError);
        this.client.off('close', onClose);
        if (error === undefined) resolve();
        else reject(connectError(error));
      };
      const onConnect = () => done();
      const onError = (error: Error) => done(error);
      const onClose = () => done(this.lastError ?? '连接被关闭');
      const timer = setTimeout(() => done(this.lastError ?? `连接超时 (${this.target.timeout} ms)`), this.target.timeout);
      this.client.on('connect', onConnect);
      this.client.on('error', onError);
      this.client.on('close', onClose);
    });
  }

  async publish(message: Outgoing): Promise<void> {
    this.lastUsed = Date.now();
    await this.connected();
    const sent = this.client.publishAsync(message.topic, message.body, { qos: this.target.qos });
    await withTimeout(sent, this.target.timeout, this.target.qos === 1 ? `等待 PUBACK 超时 (${this.target.timeout} ms)` : `发布超时 (${this.target.timeout} ms)`).catch((error: unknown) => {
      if (error instanceof DeliveryError) throw error;
      throw new DeliveryError(`MQTT 发布失败: ${messageOf(error)}`, true);
    });
  }

  // The link is dropped either way; a close that fails leaves nothing to retry.
  close(): Promise<void> {
    return this.client.endAsync(true).then(
      () => undefined,
      () => undefined,
    );
  }
}

/** Headers of an HTTP push: the target's own, the bearer token, and the body's HMAC signature when a secret is set. */
export function httpHeaders(target: Target, message: Outgoing, now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = { ...target.headers, 'content-type': 'application/json; charset=utf-8', 'user-agent': 'Vigil-Push/1.0', 'x-vigil-message-id': message.messageId };
  if (target.token) headers.authorization = `Bearer ${target.token}`;
  if (target.secret) {
    const timestamp = String(now);
    headers['x-vigil-timestamp'] = timestamp;
    headers['x-vigil-signature'] = `sha256=${createHmac('sha256', target.secret).update(`${timestamp}.${message.body}`).digest('hex')}`;
  }
  return headers;
}

/** POSTs one message; resolves with the HTTP status of a 2xx answer. */
async function post(target: Target, message: Outgoing, stop: AbortSignal, guard: OutboundGuard): Promise<number> {
  let response: Awaited<ReturnType<OutboundGuard['fetch']>>;
  try {
    response = await guard.fetch(target.url, {
      method: 'POST',
      headers: httpHeaders(target, message),
      body: message.body,
      // Redirects are not followed: a target could otherwise lead the server to an address nobody entered.
      redirect: 'manual',
      signal: AbortSignal.any([AbortSignal.timeout(target.timeout), stop]),
    });
  } catch (error) {
    const refusal = refused(error);
    if (refusal) throw refusal;
    const name = (error as { name?: string })?.name;
    if (name === 'TimeoutError') throw new DeliveryError(`请求超时 (${target.timeout} ms)`, true);
    if (name === 'AbortError') throw new DeliveryError('服务已停止', true);
    throw new DeliveryError(`请求失败: ${messageOf(error)}`, true);
  }
  const status = response.status;
  if (status >= 200 && status < 300) {
    // The answer of a success is not read; failing to discard it changes nothing.
    await response.body?.cancel().catch(() => undefined);
    return status;
  }
  // The answer only adds detail to the error below; an unreadable one leaves the status alone.
  const answer = (await response.text().catch(() => '')).slice(0, ANSWER_CHARS);
  if (status >= 300 && status < 400) throw new DeliveryError(`推送地址返回重定向 (HTTP ${status}),不跟随重定向`, false, status);
  const retry = status >= 500 || status === 408 || status === 429;
  throw new DeliveryError(`HTTP ${status}${answer ? `: ${answer}` : ''}`, retry, status);
}

/** Sends messages to targets, keeping one MQTT client per target. */
export class Sender {
  private readonly links = new Map<string, MqttLink>();
  private readonly stopping = new AbortController();

  constructor(readonly guard: OutboundGuard) {}

  /** Sends one message; resolves with the HTTP status (HTTP) or undefined (MQTT). */
  async deliver(target: Target, message: Outgoing): Promise<number | undefined> {
    if (this.stopping.signal.aborted) throw new DeliveryError('服务已停止', true);
    if (target.pushType === PUSH_TYPE.http) return post(target, message, this.stopping.signal, this.guard);
    let link: MqttLink;
    try {
      link = this.link(target);
    } catch (error) {
      throw refused(error) ?? error;
    }
    await link.publish(message);
    return undefined;
  }

  private link(target: Target): MqttLink {
    let link = this.links.get(target.id);
    if (link && link.target.signature !== target.signature) {
      void link.close();
      link = undefined;
    }
    if (!link) {
      link = new MqttLink(target, this.guard);
      this.links.set(target.id, link);
    }
    return link;
  }

  /** Closes the clients nothing was sent through for `idleMs` (a target disabled, removed or left unbound). */
  pruneIdle(idleMs: number, now = Date.now()): void {
    for (const [id, link] of this.links) {
      if (now - link.lastUsed < idleMs) continue;
      this.links.delete(id);
      void link.close();
    }
  }

  async close(): Promise<void> {
    this.stopping.abort();
    const links = [...this.links.values()];
    this.links.clear();
    await Promise.all(links.map((link) => link.close()));
  }
}

/**
 * A connection test (subtable/testMQTT): a fresh connection that is closed again, so a kept client is not disturbed;
 * publishes (or POSTs) a test message. Resolves with the HTTP status; throws a DeliveryError with the target's error.
 */
export async function probe(target: Target, message: Outgoing, guard: OutboundGuard): Promise<number | undefined> {
  if (target.pushType === PUSH_TYPE.http) return post(target, message, new AbortController().signal, guard);
  let client: MqttClient;
  try {
    client = guard.mqtt(target.brokerUrl, clientOptions({ ...target, clientId: `${target.clientId}-test-${Date.now().toString(36)}` }, 0));
  } catch (error) {
    throw refused(error) ?? error;
  }
  // A second error after the first (the close that follows a refusal) must not be an unhandled 'error' event.
  client.on('error', () => undefined);
  try {
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', (error) => reject(connectError(error)));
      client.once('close', () => reject(new DeliveryError('无法连接 MQTT 服务器: 连接被关闭', true)));
      setTimeout(() => reject(new DeliveryError(`无法连接 MQTT 服务器: 连接超时 (${target.timeout} ms)`, true)), target.timeout).unref();
    });
    await withTimeout(client.publishAsync(message.topic, message.body, { qos: target.qos }), target.timeout, `等待 PUBACK 超时 (${target.timeout} ms)`);
    return undefined;
  } finally {
    // The test's outcome is decided; a failed close of its throwaway client changes nothing.
    await client.endAsync(true).catch(() => undefined);
  }
}
