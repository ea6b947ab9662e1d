import { parseArgs } from 'node:util';
import mqtt, { type MqttClient } from 'mqtt';
import { type Model, modelOf, type Values, Weather, ageDays, chance, withSpikes } from '../../server/db/seed/physics';
import { DEMO_DEVICE_CODES, DEMO_DEVICE_PASSWORD, DEMO_GATEWAY_CODE, DEMO_GATEWAY_PASSWORD } from '../../server/db/seed/monitoring';

/**
 * `npm run simulate`: virtual devices and a gateway of the demo bridge (tenant 100001, docs/data-model.md "Seed
 * data") connect over real MQTT with their own credentials and publish structural readings — settlement drift,
 * daily temperature cycles with crack width and tilt following them, rain events, spikes and dropouts — and
 * answer commands on their command topics (docs/ingest.md "Commands").
 *
 *   npm run simulate -- --url mqtt://localhost:1883 --devices 9 --gateways 1 --interval 5000 --speed 60
 *
 * `--speed` runs the physics faster than the clock (60: a simulated hour per real minute); readings carry the real
 * time. `--duration` (seconds) stops it, `--seed` makes a run repeatable.
 */

const { values: options } = parseArgs({
  options: {
    url: { type: 'string', default: 'mqtt://localhost:1883' },
    tenant: { type: 'string', default: '100001' },
    devices: { type: 'string', default: String(DEMO_DEVICE_CODES.length) },
    gateways: { type: 'string', default: '1' },
    interval: { type: 'string', default: '5000' },
    speed: { type: 'string', default: '1' },
    duration: { type: 'string' },
    seed: { type: 'string' },
    quiet: { type: 'boolean', default: false },
  },
});

const positive = (name: string, text: string | undefined, min = 0): number => {
  const n = Number(text);
  if (!Number.isFinite(n) || n < min) {
    console.error(`--${name} must be a number ≥ ${min}`);
    process.exit(2);
  }
  return n;
};

const TENANT = options.tenant as string;
const INTERVAL_MS = positive('interval', options.interval, 50);
const SPEED = positive('speed', options.speed, 0.001);
const DEVICE_COUNT = Math.min(positive('devices', options.devices, 0), DEMO_DEVICE_CODES.length);
const GATEWAY_COUNT = Math.min(positive('gateways', options.gateways, 0), 1); // the demo project has one gateway
const DURATION_MS = options.duration === undefined ? undefined : positive('duration', options.duration, 0) * 1000;

const dice = chance(options.seed === undefined ? (Date.now() ^ process.pid) >>> 0 : positive('seed', options.seed) >>> 0);
const { random } = dice;

const startedAt = Date.now();
/**
 * Physics time: the daily and weather cycles run `SPEED` times faster than the clock from now on. The structure
 * ages with the clock, so a fast demo does not drift past its thresholds within a day.
 */
const simulatedNow = () => startedAt + (Date.now() - startedAt) * SPEED;

/** Devices that the demo project wires through its gateway (docs/data-model.md). */
const BEHIND_GATEWAY = /TILT|HLS|GNSS/;

interface Counters {
  messages: number;
  readings: number;
  commands: number;
}
const counters: Counters = { messages: 0, readings: 0, commands: 0 };
const log = (text: string) => {
  if (!options.quiet) console.log(`[simulator ${new Date().toISOString().slice(11, 19)}] ${text}`);
};

class VirtualDevice {
  /** Ticks left of a dropout: the device is silent (a flat battery, a lost link). */
  private silentTicks = 0;
  private last: Values = {};
  readonly model: Model;

  constructor(readonly code: string) {
    this.model = modelOf(code, dice);
  }

  /** The reading of this tick, or undefined while silent. */
  read(weather: Weather): Values | undefined {
    if (this.silentTicks > 0) {
      this.silentTicks--;
      if (this.silentTicks === 0) log(`${this.code} is back`);
      return undefined;
    }
    if (random() < 0.003) {
      this.silentTicks = 10 + Math.floor(random() * 40);
      log(`${this.code} drops out for ${this.silentTicks} readings`);
      return undefined;
    }
    this.last = withSpikes(this.model(simulatedNow(), ageDays(Date.now()), weather), dice);
    return this.last;
  }

  latest(points: unknown): Values {
    const wanted = Array.isArray(points) && points.length ? new Set(points.map(String)) : undefined;
    return Object.fromEntries(Object.entries(this.last).filter(([key]) => !wanted || wanted.has(key)));
  }
}

interface Command {
  id: string;
  command: string;
  params: Record<string, unknown>;
}

/** One MQTT identity (a direct device or the gateway): publishes its data and answers its commands. */
class Endpoint {
  private client?: MqttClient;
  private timer?: NodeJS.Timeout;
  private intervalMs = INTERVAL_MS;
  private readonly settings: Record<string, unknown> = {};

  constructor(
    readonly kind: 'device' | 'gateway',
    readonly code: string,
    private readonly password: string,
    private readonly devices: VirtualDevice[],
    private readonly weather: Weather,
  ) {}

  private topic(leaf: string) {
    return `vigil/${TENANT}/${this.kind}/${this.code}/${leaf}`;
  }

  async start(): Promise<void> {
    const client = mqtt.connect(options.url as string, { clientId: this.code, username: this.code, password: this.password, protocolVersion: 4, keepalive: 30, reconnectPeriod: 2000, connectTimeout: 10_000 });
    this.client = client;
    client.on('error', (error) => log(`${this.code}: ${error.message}`));
    client.on('message', (_topic, payload) => void this.onCommand(payload));
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    await client.subscribeAsync(this.topic('command'), { qos: 1 });
    log(`${this.kind} ${this.code} connected${this.kind === 'gateway' ? ` for ${this.devices.map((d) => d.code).join(', ')}` : ''}`);
    this.schedule(random() * this.intervalMs);
  }

  private schedule(delay = this.intervalMs): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.publish().finally(() => this.schedule());
    }, delay);
  }

  /** One reading of every device this identity speaks for. */
  private async publish(): Promise<number> {
    const client = this.client;
    if (!client?.connected) return 0;
    const ts = Date.now();
    if (this.kind === 'device') {
      const values = this.devices[0].read(this.weather);
      if (!values) return 0;
      await client.publishAsync(this.topic('data'), JSON.stringify({ ts, values }), { qos: 1 }).catch((error: Error) => log(`${this.code}: ${error.message}`));
      counters.messages++;
      counters.readings += Object.keys(values).length;
      return 1;
    }
    const devices: Record<string, Values> = {};
    for (const device of this.devices) {
      const values = device.read(this.weather);
      if (values) devices[device.code] = values;
    }
    if (Object.keys(devices).length === 0) return 0;
    await client.publishAsync(this.topic('data'), JSON.stringify({ ts, devices }), { qos: 1 }).catch((error: Error) => log(`${this.code}: ${error.message}`));
    counters.messages++;
    counters.readings += Object.values(devices).reduce((n, v) => n + Object.keys(v).length, 0);
    return Object.keys(devices).length;
  }

  private async onCommand(payload: Buffer): Promise<void> {
    let command: Command;
    try {
      const parsed = JSON.parse(payload.toString('utf8')) as Partial<Command>;
      if (typeof parsed.id !== 'string' || typeof parsed.command !== 'string') return;
      command = { id: parsed.id, command: parsed.command, params: parsed.params && typeof parsed.params === 'object' ? parsed.params : {} };
    } catch {
      return;
    }
    counters.commands++;
    log(`${this.code} got ${command.command} ${JSON.stringify(command.params)}`);
    const reply = await this.execute(command).then(
      (result) => ({ id: command.id, ok: true, result }),
      (error: Error) => ({ id: command.id, ok: false, error: error.message }),
    );
    await this.client?.publishAsync(this.topic('reply'), JSON.stringify(reply), { qos: 1 }).catch((error: Error) => log(`${this.code}: ${error.message}`));
  }

  private async execute({ command, params }: Command): Promise<unknown> {
    switch (command) {
      case 'collect':
        return { collected: await this.publish() };
      case 'getPoint': {
        if (this.kind === 'gateway') return { values: { interval: this.intervalMs / 1000, ...this.settings } };
        return { values: this.devices[0].latest(params.points) };
      }
      case 'setPoint': {
        const point = String(params.point ?? '');
        if (!point) throw new Error('missing point');
        if (point === 'interval') {
          const seconds = Number(params.value);
          if (!Number.isFinite(seconds) || seconds <= 0) throw new Error('interval must be a positive number of seconds');
          this.intervalMs = (seconds * 1000) / SPEED;
          this.schedule();
        } else {
          this.settings[point] = params.value;
        }
        return { point, value: params.value };
      }
      case 'setStrategy':
        this.settings.strategy = params;
        return { accepted: true };
      case 'reboot':
        return { rebooting: true };
      default:
        throw new Error(`unknown command: ${command}`);
    }
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    await this.client?.endAsync();
  }
}

async function main(): Promise<void> {
  const weather = new Weather(dice, simulatedNow());
  const devices = DEMO_DEVICE_CODES.slice(0, DEVICE_COUNT).map((code) => new VirtualDevice(code));
  const behind = GATEWAY_COUNT > 0 ? devices.filter((d) => BEHIND_GATEWAY.test(d.code)) : [];
  const endpoints = [
    ...(GATEWAY_COUNT > 0 ? [new Endpoint('gateway', DEMO_GATEWAY_CODE, DEMO_GATEWAY_PASSWORD, behind, weather)] : []),
    ...devices.filter((d) => !behind.includes(d)).map((d) => new Endpoint('device', d.code, DEMO_DEVICE_PASSWORD, [d], weather)),
  ];
  log(`${devices.length} devices, ${GATEWAY_COUNT} gateway(s) → ${options.url}, every ${INTERVAL_MS} ms, speed ×${SPEED}`);
  await Promise.all(endpoints.map((e) => e.start()));
  const report = setInterval(() => log(`${counters.messages} messages, ${counters.readings} values, ${counters.commands} commands so far`), 10_000);
  const stop = async () => {
    clearInterval(report);
    await Promise.all(endpoints.map((e) => e.stop()));
    log(`stopped: ${counters.messages} messages, ${counters.readings} values, ${counters.commands} commands`);
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
  if (DURATION_MS !== undefined) setTimeout(() => void stop(), DURATION_MS);
}

main().catch((error: unknown) => {
  console.error(`simulator: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
