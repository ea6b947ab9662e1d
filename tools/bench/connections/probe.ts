import mqtt from 'mqtt';
import { percentile } from '../support/stores';
import { clock } from './protocol';

/**
 * The probe of the connections benchmark: one more device, in the benchmark's own process, that publishes a QoS 1
 * reading every PROBE_EVERY_MS and times each PUBACK. Through a restart it reconnects like the others; a publish whose
 * connection was lost before its PUBACK is counted as interrupted (mqtt.js sends it again, but its time would be the
 * outage's), one not acknowledged within 5 s as timed out, and a turn while it is not connected as offline.
 */
/**
 * A p99 needs hundreds of samples: the probe is back for 5-10 s of a recovery, and at one publish every 100 ms its
 * "p99" was the worst of 56-104 (between 70 and 190 ms in runs of the same code). 50 a second weigh nothing beside
 * the fleet's thousands.
 */
export const PROBE_EVERY_MS = 20;
/**
 * The probe retries a refused connection every 50 ms, the devices every 0.75-1.25 s: it is among the first let in when
 * the server listens again, and so measures the whole recovery. Retrying as the devices do, it came in anywhere
 * in the admission's 9-s queue, and a run's figure depended on where (recovery p99 37-100 ms for the same code).
 */
const PROBE_RETRY_MS = 50;
const TIMEOUT_MS = 5_000;

type Outcome = 'acked' | 'interrupted' | 'timeout' | 'failed';

interface Sample {
  sentAt: number;
  latencyMs?: number;
  outcome?: Outcome;
}

export interface ProbeFigures {
  p50: number;
  p99: number;
  max: number;
  acked: number;
  interrupted: number;
  timeout: number;
  failed: number;
  offline: number;
}

/** A publish slower than this misses the target (p99 < 50 ms). */
export const SLOW_MS = 50;

export interface Probe {
  /** Its figures over the publishes sent from `from` to `to` (clock()). */
  figures(from: number, to: number): ProbeFigures;
  /**
   * How many publishes acknowledged after more than SLOW_MS were sent in each whole second after `origin`, from `from`
   * to `to` (clock()): where in a recovery the slow ones are.
   */
  slowBySecond(origin: number, from: number, to: number): Map<number, number>;
  /** Resolves once every publish sent so far has an outcome. */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

export async function startProbe(mqttUrl: string, tenant: string, code: string, password: string, connectTimeoutMs: number): Promise<Probe> {
  const options = { username: code, password, clientId: code, protocolVersion: 4, clean: true, keepalive: 60, connectTimeout: connectTimeoutMs, reconnectPeriod: PROBE_RETRY_MS } as const;
  const client = await mqtt.connectAsync(mqttUrl, options);
  const samples: Sample[] = [];
  const offline: number[] = [];
  const pending = new Set<Sample>();
  const settle = (sample: Sample, outcome: Outcome) => {
    if (!pending.delete(sample)) return;
    sample.outcome = outcome;
    if (outcome === 'acked') sample.latencyMs = clock() - sample.sentAt;
  };
  client.on('close', () => {
    for (const sample of pending) settle(sample, 'interrupted');
  });
  client.on('error', () => {}); // what it costs shows in the samples' outcomes
  const topic = `vigil/${tenant}/device/${code}/data`;
  const timer = setInterval(() => {
    const sample: Sample = { sentAt: clock() };
    if (!client.connected) return void offline.push(sample.sentAt);
    samples.push(sample);
    pending.add(sample);
    const timeout = setTimeout(() => settle(sample, 'timeout'), TIMEOUT_MS);
    client.publish(topic, JSON.stringify({ ts: Date.now(), values: { v: samples.length } }), { qos: 1 }, (error) => {
      clearTimeout(timeout);
      settle(sample, error ? 'failed' : 'acked');
    });
  }, PROBE_EVERY_MS);
  const sentWithin = (from: number, to: number) => samples.filter((s) => s.sentAt >= from && s.sentAt < to);
  return {
    figures: (from, to) => figuresOf(sentWithin(from, to), offline.filter((t) => t >= from && t < to).length),
    slowBySecond(origin, from, to) {
      const bySecond = new Map<number, number>();
      for (const s of sentWithin(from, to)) {
        if (s.latencyMs === undefined || s.latencyMs <= SLOW_MS) continue;
        const second = Math.floor((s.sentAt - origin) / 1000);
        bySecond.set(second, (bySecond.get(second) ?? 0) + 1);
      }
      return bySecond;
    },
    settled: () => new Promise((resolve) => setTimeout(resolve, pending.size ? TIMEOUT_MS : 0)),
    async stop() {
      clearInterval(timer);
      await client.endAsync(true);
    },
  };
}

function figuresOf(samples: Sample[], offline: number): ProbeFigures {
  const latencies = samples.flatMap((s) => (s.latencyMs === undefined ? [] : [s.latencyMs])).sort((a, b) => a - b);
  const count = (outcome: Outcome) => samples.filter((s) => s.outcome === outcome).length;
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? Number.NaN,
    acked: latencies.length,
    interrupted: count('interrupted'),
    timeout: count('timeout'),
    failed: count('failed'),
    offline,
  };
}
