import mqtt, { type MqttClient } from 'mqtt';

/**
 * The devices of the wall-screen benchmark (tools/bench/screen/run.ts), in their own process: every gateway publishes
 * one reading of its devices (10 values each) once a second, at QoS 1, spread over the second; the probe device
 * publishes its own reading once a second too, its `k0` the sequence number the page waits for, and tells the parent
 * when each was sent.
 * argv: url, tenant, password, probe code, then gateway specs "CODE:DEV1,DEV2,…".
 */
const [url, tenant, password, probe, ...specs] = process.argv.slice(2);
const KEYS = Array.from({ length: 10 }, (_, i) => `k${i}`);
const clients: MqttClient[] = [];
const timers: NodeJS.Timeout[] = [];
let published = 0;
let failed = 0;

const connect = (code: string) => mqtt.connectAsync(url, { username: code, password, clientId: code, protocolVersion: 4, reconnectPeriod: 1000 });

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
  const client = await connect(code);
  clients.push(client);
  let seq = 0;
  every(1000, offset, async () => {
    seq++;
    const values = Object.fromEntries(KEYS.map((k, i) => [k, Math.round(Math.sin(seq / 20 + i) * 1e4) / 1e3]));
    const body = JSON.stringify({ ts: Date.now(), devices: Object.fromEntries(devices.map((d) => [d, values])) });
    await client.publishAsync(`vigil/${tenant}/gateway/${code}/data`, body, { qos: 1 }).then(
      () => published++,
      () => failed++,
    );
  });
}

async function probeDevice(): Promise<void> {
  const client = await connect(probe);
  clients.push(client);
  let seq = 0;
  every(1000, 500, async () => {
    seq++;
    const sentAt = Date.now();
    const values = Object.fromEntries(KEYS.map((k, i) => [k, i === 0 ? seq : i]));
    process.send?.({ probe: seq, sentAt });
    await client.publishAsync(`vigil/${tenant}/device/${probe}/data`, JSON.stringify({ ts: sentAt, values }), { qos: 1 }).catch(() => failed++);
  });
}

process.on('message', async (message) => {
  if (message !== 'stop') return;
  for (const timer of timers) clearInterval(timer);
  await Promise.all(clients.map((c) => c.endAsync()));
  process.send?.({ published, failed });
  process.disconnect?.();
});

await Promise.all([...specs.map((spec, i) => gateway(spec, Math.floor((i * 1000) / specs.length))), probeDevice()]);
process.send?.({ ready: true });
