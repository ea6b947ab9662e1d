import { MQTT_CLIENT_TYPE } from '../../resources/iot/mqtt';
import type { Platform } from '../platform';
import { Rollups } from '../series/rollups';
import type { BrokerHooks } from './broker';
import { Directory } from './directory';
import { ExternalIngest } from './external';
import { LatestValues } from './latest';
import { Ingestion, isDataTopic } from './pipeline';
import { Presence } from './presence';
import { SeriesWriter } from './store';

/** Every data topic, as the platform subscribes to them on an external broker. */
const DATA_TOPICS = 'vigil/+/+/+/data';

/** The ingestion side of the platform, built once per server (docs/ingest.md). */
export interface Ingest {
  directory: Directory;
  latest: LatestValues;
  presence: Presence;
  pipeline: Ingestion;
  writer: SeriesWriter;
  /** Keeps the rollups of the series current (server/series/rollups.ts). */
  rollups: Rollups;
  /** What the embedded broker calls. */
  hooks: BrokerHooks;
  /** With MQTT_URL: subscribes to the external broker's data topics. */
  connectExternal(url: string): Promise<void>;
  /** With MQTT_URL: whether the connection to the external broker is up now (readiness, server/observe). */
  externalConnected(): boolean;
  /** Stores everything still buffered and stops the timers. */
  stop(): Promise<void>;
}

export function createIngest(platform: Platform): Ingest {
  const directory = new Directory(platform.db, platform.events);
  const log = (error: unknown, context?: string) => platform.logs.error('ingest', error, context);
  const writer = new SeriesWriter(platform.native, log);
  writer.onCommitted = (seconds) => platform.metrics.batchCommitted(seconds);
  // On SQLite the write-back runs in the writer's thread: on the main thread's connection it took a tenth of that
  // thread while a fleet reconnected. PostgreSQL's pool runs it without holding the main thread, on its own: inside a
  // series batch its row locks would meet presence's updates of the same devices.
  const latest = new LatestValues(platform.db, log, platform.native.dialect === 'sqlite' ? (query) => writer.execute(query) : undefined);
  const presence = new Presence(platform, directory, platform.config.offlineAfterMs);
  const pipeline = new Ingestion(platform, directory, writer, latest, presence);
  const rollups = new Rollups(platform, log);
  latest.start();
  presence.start();
  rollups.start();
  let external: ExternalIngest | undefined;

  const hooks: BrokerHooks = {
    isData: isDataTopic,
    data: (topic, payload, priority) => pipeline.accept(topic, payload, Date.now(), priority),
    connection: (who, online, reason, clientIp) => {
      const kind = who.clientType === MQTT_CLIENT_TYPE.device ? 'device' : who.clientType === MQTT_CLIENT_TYPE.gateway ? 'gateway' : undefined;
      if (kind) void presence.connection(who.clientId, kind, online, reason, clientIp).catch((error) => log(error, `presence of ${who.clientId}`));
    },
    behind: () => writer.behind,
    handOver: (who) => presence.handOver(who.filter((w) => w.clientType === MQTT_CLIENT_TYPE.device).map((w) => w.clientId)),
  };

  return {
    directory,
    latest,
    presence,
    pipeline,
    writer,
    rollups,
    hooks,
    async connectExternal(url) {
      // The external broker authenticates the devices; we read their data as one more subscriber, acknowledging each
      // message once it is stored. Processes of one deployment share the subscription, so each message is ingested
      // once, by one of them (server/ingest/external.ts).
      const { mqttClientId, mqttShareGroup } = platform.config;
      external = new ExternalIngest({
        url,
        clientId: `${mqttClientId}-ingest`,
        shareGroup: mqttShareGroup,
        topics: DATA_TOPICS,
        leases: platform.leases,
        accept: (topic, payload) => pipeline.accept(topic, payload),
        log,
      });
      await external.start();
    },
    externalConnected: () => external?.connected === true,
    async stop() {
      await external?.stop();
      latest.stop();
      await presence.stop();
      await rollups.stop();
      await latest.persist();
      await writer.close();
    },
  };
}
