import mqtt from 'mqtt';

/**
 * One load-generator process of the ingestion benchmark: its gateways publish QoS 1 messages as fast as the
 * broker acknowledges them (a window of in-flight messages per gateway) until told to stop, then report.
 * Readings are stamped with the time they are sent, as live devices do; with the clock "backfill" they are stamped
 * a millisecond apart a day back, as a gateway uploading its backlog does (the hour they land in is closed, so the
 * roller keeps rolling it up again while it is written).
 * argv: url, tenant, password, window, clock ("now" | "backfill"), then gateway specs "CODE:DEV1,DEV2,…".
 */
const [url, tenant, password, windowText, clock, ...specs] = process.argv.slice(2);
const WINDOW = Number(windowText);
const KEYS = Array.from({ length: 10 }, (_, i) => `k${i}`);
let stopping = false;
let acked = 0;
let points = 0;
let failed = 0;

async function run(spec: string): Promise<void> {
  const [code, list] = spec.split(':');
  const devices = list.split(',');
  const client = await mqtt.connectAsync(url, { username: code, password, clientId: code, protocolVersion: 4, reconnectPeriod: 0 });
  const topic = `vigil/${tenant}/gateway/${code}/data`;
  const base = Date.now() - 86_400_000;
  let seq = 0;
  let last = 0;
  // Unique per gateway: a reading at an instant already stored would overwrite it and the no-loss count would miss it.
  const stamp = () => (clock === 'backfill' ? base + seq : (last = Math.max(Date.now(), last + 1)));
  const perMessage = devices.length * KEYS.length;
  const one = async (): Promise<void> => {
    while (!stopping) {
      const ts = stamp();
      seq++;
      const values = Object.fromEntries(KEYS.map((k, i) => [k, Math.round(Math.sin(seq / 50 + i) * 1e4) / 1e3]));
      const body = JSON.stringify({ ts, devices: Object.fromEntries(devices.map((d) => [d, values])) });
      try {
        await client.publishAsync(topic, body, { qos: 1 });
        acked++;
        points += perMessage;
      } catch {
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, one));
  await client.endAsync();
}

process.on('message', (message) => {
  if (message === 'stop') stopping = true;
});
const started = Promise.all(specs.map(run));
process.send?.({ ready: true });
await started;
process.send?.({ acked, points, failed });
process.disconnect?.();
