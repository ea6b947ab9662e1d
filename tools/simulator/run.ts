import { parseArgs } from 'node:util';
import mqtt, { type MqttClient } from 'mqtt';
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

/** Repeatable randomness (mulberry32) and normal noise (Box–Muller). */
let state = options.seed === undefined ? (Date.now() ^ process.pid) >>> 0 : positive('seed', options.seed) >>> 0;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const gauss = (sigma: number) => sigma * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const startedAt = Date.now();
/** Physics time: runs `SPEED` times faster than the clock from now on. */
const simulatedNow = () => startedAt + (Date.now() - startedAt) * SPEED;
/** Days since the structure was instrumented (the demo project starts on 2026-01-01). */
const ageDays = (t: number) => Math.max(0, (t - Date.UTC(2026, 0, 1)) / DAY);
const hourOfDay = (t: number) => new Date(t).getHours() + new Date(t).getMinutes() / 60;

/** The weather over the bridge: a daily air temperature cycle (warmest at 15:00) and rain events. */
class Weather {
  private rainUntil = 0;
  private intensity = 0; // mm/h
  private last = simulatedNow();

  air(t: number): number {
    const seasonal = 16 - 10 * Math.cos((2 * Math.PI * (new Date(t).getMonth() + 0.5)) / 12); // ~6 °C in January, ~26 °C in July
    return seasonal + 6 * Math.sin((2 * Math.PI * (hourOfDay(t) - 9)) / 24);
  }

  /** The structure lags the air and swings less. */
  structure(t: number): number {
    return this.air(t - 2 * HOUR) * 0.8 + 4;
  }

  /** Rain (mm) fallen since the last call: events start at random, last 0.5–6 h, and come in bursts. */
  rain(t: number): number {
    const hours = Math.max(0, (t - this.last) / HOUR);
    this.last = t;
    if (t > this.rainUntil && random() < 1 - Math.exp(-0.04 * hours)) {
      this.rainUntil = t + (0.5 + random() * 5.5) * HOUR;
      this.intensity = 1 + random() * 19;
    }
    if (t > this.rainUntil) return 0;
    const burst = random() < 0.2 ? 3 : 1;
    return Math.max(0, this.intensity * burst * hours * (0.6 + random() * 0.8));
  }

  raining(t: number): boolean {
    return t <= this.rainUntil;
  }
}

type Values = Record<string, number>;
type Model = (t: number, weather: Weather) => Values;

const round = (n: number, digits: number) => Number(n.toFixed(digits));
/** A per-device constant in [-1, 1) derived from its code (FNV-1a), so two devices of a kind differ. */
const trait = (code: string) => ([...code].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0, 2166136261) % 2000) / 1000 - 1;

/** Readings by kind of sensor; what each device of the demo bridge measures (docs/data-model.md). */
function modelOf(code: string): Model {
  const k = trait(code);
  if (code.includes('TILT')) {
    // Tower tilt: a slow lean plus a thermal swing (the sunny face expands).
    return (t, w) => {
      const thermal = 0.0009 * (w.structure(t) - 20);
      return { tilt_x: round(0.012 * k + 0.00004 * ageDays(t) + thermal + gauss(0.0002), 5), tilt_y: round(-0.006 * k + 0.4 * thermal + gauss(0.0002), 5) };
    };
  }
  if (code.includes('CRACK')) {
    // The crack opens when the concrete cools; the gauge itself reads 0.0125 mm/°C low, which the model's
    // temperature coefficient corrects on the platform.
    return (t, w) => {
      const T = w.structure(t);
      const width = 0.2 + 0.03 * k + 0.0004 * ageDays(t) - 0.004 * (T - 20);
      return { crack: round(width - 0.0125 * (T - 20) + gauss(0.002), 4), temperature: round(T + gauss(0.1), 2) };
    };
  }
  if (code.includes('HLS')) {
    // Consolidation settlement of the pier (mm, positive down) plus what every sensor of the liquid circuit shares
    // with the temperature (the reference point removes it in device/computeSettlement).
    return (t, w) => {
      const final = 6 + 3 * k;
      return { settlement: round(final * (1 - Math.exp(-ageDays(t) / 180)) + 0.05 * (w.structure(t) - 20) + gauss(0.02), 3) };
    };
  }
  if (code.includes('GNSS')) {
    return (t, w) => {
      const T = w.structure(t);
      return { dx: round(0.8 * (T - 20) + gauss(1.5), 1), dy: round(gauss(1.5), 1), dz: round(-0.15 * (T - 20) - 0.01 * ageDays(t) + gauss(3), 1) };
    };
  }
  if (code.includes('RAIN')) return (t, w) => ({ rainfall: round(w.rain(t), 1) });
  if (code.includes('TH')) {
    return (t, w) => {
      const T = w.structure(t) - 2 + gauss(0.1);
      const humidity = Math.min(100, Math.max(20, 70 - 1.5 * (T - 18) + (w.raining(t) ? 15 : 0) + gauss(1)));
      return { temperature: round(T, 1), humidity: round(humidity, 1) };
    };
  }
  return (t, w) => ({ temperature: round(w.structure(t), 1) });
}

/** Devices that the demo project wires through its gateway (docs/data-model.md). */
const BEHIND_GATEWAY = /TILT|HLS|GNSS/;

/** Now and then a value is an outlier (a spike) — the sort alarms and corrections exist for. */
function withSpikes(values: Values): Values {
  const out: Values = {};
  for (const [key, value] of Object.entries(values)) out[key] = random() < 0.005 ? round(value + (random() < 0.5 ? -1 : 1) * (1 + Math.abs(value)) * (1 + random()), 4) : value;
  return out;
}

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
    this.model = modelOf(code);
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
    this.last = withSpikes(this.model(simulatedNow(), weather));
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
  const weather = new Weather();
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
