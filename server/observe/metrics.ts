import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { AlarmsChanged, EventBus } from '../events';
import type { RefusalReason } from '../ingest/payload';
import type { DeviceMessage, StoredReading } from '../ingest/types';

/**
 * The platform's figures in Prometheus' text format (docs/operations.md "Observability"). One registry per app, not
 * prom-client's global one: tests build several apps in one process. What the event bus already carries (messages,
 * stored readings, the alarm engine's changes) is counted by listening to it, so the ingest path is untouched; the
 * rest is told through Recorder (a counter step each, never per reading) or read when scraped (gauges).
 */

/** What became of one delivery attempt of the alarm notifier: sent, failed to be tried again, failed for good, or dropped unsent. */
export type DeliveryOutcome = 'sent' | 'retry' | 'failed' | 'dropped';

/** What the ingest pipeline, the series writer and the notifier tell the metrics. */
export interface Recorder {
  /** A batch of the series writer committed, after `seconds`. */
  batchCommitted(seconds: number): void;
  /** Data the ingest pipeline refused: `count` values, or 1 for a message refused whole. */
  refused(reason: RefusalReason, count: number): void;
  /** A delivery attempt of an alarm notification. */
  notified(channel: string, outcome: DeliveryOutcome): void;
  /** A CONNECT's credentials checked by the embedded broker (server/ingest/credentials.ts). */
  deviceConnect(outcome: ConnectOutcome): void;
}

/** Accepted through the verifier or through scrypt, or refused: unknown name, wrong password, locked out. */
export type ConnectOutcome = 'verifier' | 'scrypt' | 'unknown' | 'password' | 'locked';

/** Figures read when Prometheus scrapes, from the parts that hold them. */
export interface Sources {
  /** Series rows written and not yet committed (server/ingest/store.ts). */
  writerDepth(): number;
  /** Open socket.io connections. */
  sockets(): number;
  /** Alarm notifications planned and not yet settled: one count query. */
  notifierBacklog(): Promise<number>;
  /** Persistent MQTT sessions the embedded broker keeps for devices that are away (server/ingest/broker.ts). */
  sessionsAway(): number;
  /** Open TCP connections to the embedded broker, those before their CONNECT included. */
  mqttConnections(): number;
  /** Connections accepted and waiting for their turn under MQTT_CONNECT_RATE. */
  mqttWaiting(): number;
  /** How long connections have waited, in all, because ingestion was behind (server/ingest/admission.ts). */
  mqttHeldSeconds(): number;
}

/** Seconds: commits of the series writer take milliseconds (docs/benchmarks.md); a slow disk shows in the top buckets. */
const COMMIT_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];
/** Seconds: API calls, from sub-millisecond lookups to exports. */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A label value for a route that matched none: one series, whatever paths the 404s asked for. */
export const UNMATCHED = 'unmatched';

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

export interface MetricsOptions {
  /** prom-client's process and Node.js metrics (event-loop lag, heap, GC, CPU, handles): on unless a test says not. */
  defaults?: boolean;
}

export class Metrics implements Recorder {
  readonly registry = new Registry();
  private readonly messages: Counter;
  private readonly points: Counter;
  private readonly refusals: Counter<'reason'>;
  private readonly commits: Histogram;
  private readonly requests: Histogram<'method' | 'route' | 'status_class'>;
  private readonly alarmChanges: Counter<'action'>;
  private readonly notifications: Counter<'channel' | 'outcome'>;
  private readonly connects: Counter<'outcome'>;
  private sources?: Sources;
  private readonly stopListening: () => void;

  constructor(events: EventBus, options: MetricsOptions = {}) {
    const registers = [this.registry];
    this.messages = new Counter({ name: 'vigil_ingest_messages_total', help: 'Data messages handled by the ingest pipeline (stored, or kept raw with their error)', registers });
    this.points = new Counter({ name: 'vigil_ingest_points_total', help: 'Values stored into the time series (from devices, gateways and third-party pulls)', registers });
    this.refusals = new Counter({
      name: 'vigil_ingest_refused_total',
      help: 'Data refused by the ingest pipeline, by reason: values, or 1 for a message refused whole',
      labelNames: ['reason'],
      registers,
    });
    this.commits = new Histogram({ name: 'vigil_ingest_batch_commit_seconds', help: 'Time to commit one batch of the series writer', buckets: COMMIT_BUCKETS, registers });
    const depth: Gauge = new Gauge({
      name: 'vigil_ingest_writer_queue_depth',
      help: 'Values written and not yet committed (waiting for a batch, or in one that is committing)',
      registers,
      collect: () => depth.set(this.sources?.writerDepth() ?? 0),
    });
    this.requests = new Histogram({
      name: 'vigil_http_request_duration_seconds',
      help: 'HTTP calls by route pattern, method and status class',
      labelNames: ['method', 'route', 'status_class'],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    const sockets: Gauge = new Gauge({
      name: 'vigil_realtime_sockets',
      help: 'Open socket.io connections (browsers and wall screens)',
      registers,
      collect: () => sockets.set(this.sources?.sockets() ?? 0),
    });
    this.alarmChanges = new Counter({
      name: 'vigil_alarm_changes_total',
      help: 'Alarm changes made by the alarm engine, by action (raise, escalate, deescalate, clear)',
      labelNames: ['action'],
      registers,
    });
    this.notifications = new Counter({
      name: 'vigil_notifications_total',
      help: 'Delivery attempts of alarm notifications, by channel and outcome (sent, retry, failed, dropped)',
      labelNames: ['channel', 'outcome'],
      registers,
    });
    this.connects = new Counter({
      name: 'vigil_mqtt_connects_total',
      help: "CONNECTs to the embedded broker by their credentials' outcome: accepted through the verifier or scrypt; refused as unknown, password or locked",
      labelNames: ['outcome'],
      registers,
    });
    const backlog: Gauge = new Gauge({
      name: 'vigil_notifier_backlog',
      help: 'Alarm notifications planned and not yet sent, failed or dropped',
      registers,
      // As Prometheus scrapes: a count on the outbox's (state, due_at) index.
      collect: async () => backlog.set((await this.sources?.notifierBacklog()) ?? 0),
    });
    const away: Gauge = new Gauge({
      name: 'vigil_mqtt_sessions_away',
      help: 'Persistent MQTT sessions the embedded broker keeps for devices that are away, until MQTT_SESSION_EXPIRY',
      registers,
      collect: () => away.set(this.sources?.sessionsAway() ?? 0),
    });
    const connections: Gauge = new Gauge({
      name: 'vigil_mqtt_connections',
      help: 'Open TCP connections to the embedded broker, those that have not completed their CONNECT included',
      registers,
      collect: () => connections.set(this.sources?.mqttConnections() ?? 0),
    });
    const waiting: Gauge = new Gauge({
      name: 'vigil_mqtt_connections_waiting',
      help: 'Connections to the embedded broker accepted and waiting for their turn under MQTT_CONNECT_RATE',
      registers,
      collect: () => waiting.set(this.sources?.mqttWaiting() ?? 0),
    });
    // A total kept by the admission, told to Prometheus as a counter: its rate is the share of the time new
    // connections wait for ingestion rather than for MQTT_CONNECT_RATE.
    let heldCounted = 0;
    const held: Counter = new Counter({
      name: 'vigil_mqtt_admission_held_seconds_total',
      help: 'Seconds new connections to the embedded broker waited because ingestion was behind (not for MQTT_CONNECT_RATE)',
      registers,
      collect: () => {
        const total = this.sources?.mqttHeldSeconds() ?? 0;
        if (total <= heldCounted) return;
        held.inc(total - heldCounted);
        heldCounted = total;
      },
    });
    if (options.defaults !== false) collectDefaultMetrics({ register: this.registry });

    const onMessage = (_message: DeviceMessage) => this.messages.inc();
    const onReadings = (batch: readonly StoredReading[]) => this.points.inc(batch.length);
    const onAlarms = (change: AlarmsChanged) => {
      if (change.action) this.alarmChanges.inc({ action: change.action });
    };
    events.on('message', onMessage);
    events.on('readings', onReadings);
    events.on('alarms', onAlarms);
    this.stopListening = () => {
      events.off('message', onMessage);
      events.off('readings', onReadings);
      events.off('alarms', onAlarms);
    };
  }

  /** The parts whose figures are read at scrape time, once they are built (buildApp). */
  watch(sources: Sources): void {
    this.sources = sources;
  }

  batchCommitted(seconds: number): void {
    this.commits.observe(seconds);
  }

  refused(reason: RefusalReason, count: number): void {
    this.refusals.inc({ reason }, count);
  }

  notified(channel: string, outcome: DeliveryOutcome): void {
    this.notifications.inc({ channel, outcome });
  }

  deviceConnect(outcome: ConnectOutcome): void {
    this.connects.inc({ outcome });
  }

  /** An answered HTTP call; `route` is the route's pattern (bounded), never the URL asked for. */
  request(method: string, route: string | undefined, status: number, seconds: number): void {
    this.requests.observe({ method, route: route ?? UNMATCHED, status_class: statusClass(status) }, seconds);
  }

  /** The text Prometheus reads. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  close(): void {
    this.stopListening();
    this.sources = undefined;
  }
}
