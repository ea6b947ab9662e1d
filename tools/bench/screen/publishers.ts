import mqtt, { type MqttClient } from 'mqtt';

/**
 * The devices of the wall-screen benchmark (tools/bench/screen/run.ts), in their own process: every gateway publishes
 * one reading of its devices (10 values each) once a second, at QoS 1, spread over the second. Value `k<i>` is the
 * gateway's sequence number plus i / 10, so the page can tell which publish a tile shows. On `stop` the
 * process answers when each sequence number of each gateway was sent (epoch ms), and the counts.
 * argv: url, tenant, password, then gateway specs "CODE:DEV1,DEV2,…".
 */
export interface PublishReport {
  published: number;
  failed: number;
  /** gateway code -> send time of sequence number i + 1 at index i */
  sentAt: Record<string, number[]>;
}

const [url, tenant, password, ...specs] = process.argv.slice(2);
const KEYS = Array.from({ length: 10 }, (_, i) => `k${i}`);
const clients: MqttClient[] = [];
const timers: NodeJS.Timeout[] = [];
const report: PublishReport = { published: 0, failed: 0, sentAt: {} };

function every(ms: number, offset: number, tick: () => Promise<void>): void {
  timers.push(
    setTimeout(() => {
      void tick();
      timers.push(setInterval(() => void tick(), ms));
    }, offset),
  );
}

async function gateway(spec: string, offset: number): Promise<void> {
  const [code, list] = spec.split(':');
  const devices = list.split(',');
  const client = await mqtt.connectAsync(url, { username: code, password, clientId: code, protocolVersion: 4, reconnectPeriod: 1000 });
  clients.push(client);
  const sent: number[] = (report.sentAt[code] = []);
  every(1000, offset, async () => {
    const seq = sent.length + 1;
    const values = Object.fromEntries(KEYS.map((k, i) => [k, seq + i / 10]));
    const ts = Date.now();
    sent.push(ts);
    const body = JSON.stringify({ ts, devices: Object.fromEntries(devices.map((d) => [d, values])) });
    await client.publishAsync(`vigil/${tenant}/gateway/${code}/data`, body, { qos: 1 }).then(
      () => report.published++,
      () => report.failed++,
    );
  });
}

process.on('message', async (message) => {
  if (message !== 'stop') return;
  for (const timer of timers) clearInterval(timer);
  // A client the server already dropped may refuse to end cleanly: the report is sent whatever each answers.
  await Promise.allSettled(clients.map((c) => c.endAsync()));
  // Disconnected once the report is written: a disconnect right after `send` can drop it.
  process.send?.(report, () => process.disconnect?.());
});

await Promise.all(specs.map((spec, i) => gateway(spec, Math.floor((i * 1000) / specs.length))));
process.send?.({ ready: true });
