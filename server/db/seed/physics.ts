/**
 * How the demo bridge's sensors behave (docs/data-model.md "Demo life"): one model that the simulator publishes live
 * (tools/simulator/run.ts) and the demo seed writes as the past week's history (seed/demo-life.ts), so the charts run
 * on without a seam.
 */

export type Values = Record<string, number>;

/** Repeatable randomness (mulberry32) and normal noise (Box–Muller). */
export interface Chance {
  random(): number;
  gauss(sigma: number): number;
}

export function chance(seed: number): Chance {
  let state = seed >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { random, gauss: (sigma) => sigma * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()) };
}

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** Days since the structure was instrumented (the demo project starts on 2026-01-01). */
export const ageDays = (t: number) => Math.max(0, (t - Date.UTC(2026, 0, 1)) / DAY_MS);
const hourOfDay = (t: number) => new Date(t).getHours() + new Date(t).getMinutes() / 60;

/** The weather over the bridge: a daily air temperature cycle (warmest at 15:00) and rain events. */
export class Weather {
  private rainUntil = 0;
  private intensity = 0; // mm/h

  constructor(
    private readonly chance: Chance,
    private last: number,
  ) {}

  air(t: number): number {
    const seasonal = 16 - 10 * Math.cos((2 * Math.PI * (new Date(t).getMonth() + 0.5)) / 12); // ~6 °C in January, ~26 °C in July
    return seasonal + 6 * Math.sin((2 * Math.PI * (hourOfDay(t) - 9)) / 24);
  }

  /** The structure lags the air and swings less. */
  structure(t: number): number {
    return this.air(t - 2 * HOUR_MS) * 0.8 + 4;
  }

  /** Rain (mm) fallen since the last call: events start at random, last 0.5–6 h, and come in bursts. */
  rain(t: number): number {
    const { random } = this.chance;
    const hours = Math.max(0, (t - this.last) / HOUR_MS);
    this.last = t;
    if (t > this.rainUntil && random() < 1 - Math.exp(-0.04 * hours)) {
      this.rainUntil = t + (0.5 + random() * 5.5) * HOUR_MS;
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

/** A sensor's reading at time `t` (the daily and weather cycles) of a structure `age` days old (slow drifts). */
export type Model = (t: number, age: number, weather: Weather) => Values;

const round = (n: number, digits: number) => Number(n.toFixed(digits));
/** A per-device constant in [-1, 1) derived from its code (FNV-1a), so two devices of a kind differ. */
const trait = (code: string) => ([...code].reduce((h, ch) => Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0, 2166136261) % 2000) / 1000 - 1;

/** The crack meter reads this much low per °C above 20 °C; its model's temperature coefficient corrects it. */
export const CRACK_TEMPERATURE_COEFFICIENT = 0.0125;

/** Readings by kind of sensor; what each device of the demo bridge measures (docs/data-model.md). */
export function modelOf(code: string, { gauss }: Chance): Model {
  const k = trait(code);
  if (code.includes('TILT')) {
    // Tower tilt: a slow lean plus a thermal swing (the sunny face expands).
    return (t, age, w) => {
      const thermal = 0.0009 * (w.structure(t) - 20);
      return { tilt_x: round(0.012 * k + 0.00004 * age + thermal + gauss(0.0002), 5), tilt_y: round(-0.006 * k + 0.4 * thermal + gauss(0.0002), 5) };
    };
  }
  if (code.includes('CRACK')) {
    // The crack opens when the concrete cools; the gauge itself reads low with the temperature (corrected on the
    // platform by the model's temperature coefficient).
    return (t, age, w) => {
      const T = w.structure(t);
      const width = 0.2 + 0.03 * k + 0.0004 * age - 0.004 * (T - 20);
      return { crack: round(width - CRACK_TEMPERATURE_COEFFICIENT * (T - 20) + gauss(0.002), 4), temperature: round(T + gauss(0.1), 2) };
    };
  }
  if (code.includes('HLS')) {
    // Consolidation settlement of the pier (mm, positive down) plus what every sensor of the liquid circuit shares
    // with the temperature (the reference point removes it in device/computeSettlement).
    return (t, age, w) => {
      const final = 6 + 3 * k;
      return { settlement: round(final * (1 - Math.exp(-age / 180)) + 0.05 * (w.structure(t) - 20) + gauss(0.02), 3) };
    };
  }
  if (code.includes('GNSS')) {
    return (t, age, w) => {
      const T = w.structure(t);
      return { dx: round(0.8 * (T - 20) + gauss(1.5), 1), dy: round(gauss(1.5), 1), dz: round(-0.15 * (T - 20) - 0.01 * age + gauss(3), 1) };
    };
  }
  if (code.includes('RAIN')) return (t, _age, w) => ({ rainfall: round(w.rain(t), 1) });
  if (code.includes('TH')) {
    return (t, _age, w) => {
      const T = w.structure(t) - 2 + gauss(0.1);
      const humidity = Math.min(100, Math.max(20, 70 - 1.5 * (T - 18) + (w.raining(t) ? 15 : 0) + gauss(1)));
      return { temperature: round(T, 1), humidity: round(humidity, 1) };
    };
  }
  return (t, _age, w) => ({ temperature: round(w.structure(t), 1) });
}

/** Now and then a value is an outlier (a spike) — the sort alarms and corrections exist for. */
export function withSpikes(values: Values, { random }: Chance, probability = 0.005): Values {
  const out: Values = {};
  for (const [key, value] of Object.entries(values)) {
    out[key] = random() < probability ? round(value + (random() < 0.5 ? -1 : 1) * (1 + Math.abs(value)) * (1 + random()), 4) : value;
  }
  return out;
}
