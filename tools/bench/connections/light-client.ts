import { connect, type Socket } from 'node:net';
import mqttPacket, { type Packet } from 'mqtt-packet';

/**
 * A device of the load generator: the little of MQTT 3.1.1 a sensor speaks (CONNECT, QoS 1 PUBLISH, PINGREQ), straight
 * over a socket. mqtt.js spent 0.5 ms of CPU per connection and more per refused retry while the server was down,
 * and the generators share this machine's two cores with the server they measure: a device's own cost would be
 * counted as the server's. Real devices run elsewhere.
 *
 * Like mqtt.js with reconnectPeriod, it reconnects by itself after `retryMs` when its connection is refused or lost or
 * its CONNACK does not arrive in time, and keeps QoS 1 publishes made offline or not acknowledged, sending them (again,
 * flagged dup) on its next connection.
 */
export interface LightClientOptions {
  host: string;
  port: number;
  /** The address it connects from. */
  localAddress?: string;
  clientId: string;
  username: string;
  password: string;
  keepaliveS: number;
  connectTimeoutMs: number;
  retryMs: number;
  onConnect(): void;
  /** The connection is gone (`wasConnected`: it had its CONNACK; otherwise an attempt failed). */
  onClose(wasConnected: boolean): void;
  onError(message: string): void;
}

interface Pending {
  topic: string;
  payload: string;
  done: (error?: Error) => void;
  sent: boolean;
}

const MAX_MESSAGE_ID = 65_535;

export class LightClient {
  private socket?: Socket;
  private connected = false;
  private ended = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private timer?: NodeJS.Timeout;
  private ping?: NodeJS.Timeout;
  private connectBytes?: Buffer;

  constructor(private readonly options: LightClientOptions) {
    this.open();
  }

  /** A QoS 1 publish; `done` runs at its PUBACK. */
  publish(topic: string, payload: string, done: (error?: Error) => void): void {
    const messageId = this.nextId;
    this.nextId = this.nextId === MAX_MESSAGE_ID ? 1 : this.nextId + 1;
    const entry: Pending = { topic, payload, done, sent: false };
    this.pending.set(messageId, entry);
    if (this.connected) this.send(messageId, entry);
  }

  /** Closes for good: a DISCONNECT, no reconnection; unacknowledged publishes fail. */
  end(): void {
    this.ended = true;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    if (this.connected) this.socket?.end(mqttPacket.generate({ cmd: 'disconnect' }));
    else this.socket?.destroy();
    for (const { done } of this.pending.values()) done(new Error('client ended'));
    this.pending.clear();
  }

  private open(): void {
    const { host, port, localAddress, connectTimeoutMs } = this.options;
    const socket = connect({ host, port, localAddress, noDelay: true });
    this.socket = socket;
    // The parser and the CONNECT once the server has answered: while it is down a device's attempts are refused
    // ~20,000 times a second, on the cores the restarted server needs.
    socket.once('connect', () => {
      const parser = mqttPacket.parser({ protocolVersion: 4 });
      parser.on('packet', (packet) => this.receive(packet));
      parser.on('error', (error) => this.fail(error.message));
      socket.on('data', (data) => parser.parse(data));
      socket.write(this.connectPacket());
    });
    socket.on('error', (error) => this.options.onError(error.message));
    socket.on('close', () => this.closed());
    this.timer = setTimeout(() => this.fail('connack timeout'), connectTimeoutMs);
  }

  private connectPacket(): Buffer {
    const { clientId, username, password, keepaliveS } = this.options;
    this.connectBytes ??= mqttPacket.generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId, keepalive: keepaliveS, username, password: Buffer.from(password) });
    return this.connectBytes;
  }

  private receive(packet: Packet): void {
    if (packet.cmd === 'connack') {
      clearTimeout(this.timer);
      if (packet.returnCode !== 0) {
        this.fail(`connack ${packet.returnCode}`);
        return;
      }
      this.connected = true;
      this.ping = setInterval(() => this.socket?.write(mqttPacket.generate({ cmd: 'pingreq' })), this.options.keepaliveS * 1000);
      // The publishes kept from before first, then onConnect's: sent after it, this loop sent its reading twice.
      for (const [messageId, entry] of this.pending) this.send(messageId, entry);
      this.options.onConnect();
    } else if (packet.cmd === 'puback') {
      const entry = this.pending.get(packet.messageId as number);
      this.pending.delete(packet.messageId as number);
      entry?.done();
    }
  }

  private send(messageId: number, entry: Pending): void {
    this.socket?.write(mqttPacket.generate({ cmd: 'publish', topic: entry.topic, payload: entry.payload, qos: 1, messageId, dup: entry.sent, retain: false }));
    entry.sent = true;
  }

  private fail(message: string): void {
    this.options.onError(message);
    this.socket?.destroy();
  }

  private closed(): void {
    clearTimeout(this.timer);
    clearInterval(this.ping);
    const wasConnected = this.connected;
    this.connected = false;
    this.socket = undefined;
    this.options.onClose(wasConnected);
    if (!this.ended) this.timer = setTimeout(() => this.open(), this.options.retryMs);
  }
}
