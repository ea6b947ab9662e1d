import { LightClient } from './light-client';
import { type Command, clock, emptyReport, LATE_MS, type Reply } from './protocol';

/**
 * One load-generator process of the connections benchmark (run.ts): each of its devices is one MQTT client with its
 * own identity (MQTT 3.1.1, clean session, keep-alive 60 s, light-client.ts). They connect when told, publish one QoS 1 reading on
 * their own topic every period once told, and reconnect by themselves when the server goes away, as real devices
 * do: about every second, each at its own pace. A device that comes back sends a reading at once.
 * Reports its counts to the parent every half second.
 * argv: url, tenant, password, CONNACK timeout (ms).
 */
const [url, tenant, password, connectTimeoutText] = process.argv.slice(2);
const CONNECT_TIMEOUT_MS = Number(connectTimeoutText);
const KEYS = Array.from({ length: 10 }, (_, i) => `k${i}`);
const REPORT_MS = 500;
/** Clients opened per turn of the event loop, so that CONNACKs are read while the rest open. */
const SLICE = 200;
/** Distinct error messages kept: they are for diagnosis, not a log. */
const MAX_ERRORS = 20;

interface Device {
  code: string;
  slot: number;
  client?: LightClient;
  connected: boolean;
  ever: boolean;
  /** When it connected again after the restart mark; undefined before. */
  backAt?: number;
  backAcked: boolean;
}

const devices: Device[] = [];
const timers: NodeJS.Timeout[] = [];
const report = emptyReport();
let publishing = false;
let marked = false;

const send = (reply: Reply, then: () => void = () => {}) => process.send?.(reply, undefined, {}, then);

function countError(message: string): void {
  if (message in report.errors || Object.keys(report.errors).length < MAX_ERRORS) report.errors[message] = (report.errors[message] ?? 0) + 1;
}

function publish(device: Device): void {
  if (!device.client) return;
  report.published++;
  const values = Object.fromEntries(KEYS.map((k, i) => [k, Math.round(Math.random() * 1e4) / 100 + i]));
  // Sent while offline, the client keeps it and sends it on the next connection.
  device.client.publish(`vigil/${tenant}/device/${device.code}/data`, JSON.stringify({ ts: Date.now(), values }), (error) => {
    if (error) {
      report.failed++;
      return countError(error.message);
    }
    report.acked++;
    if (device.backAt === undefined || device.backAcked) return;
    device.backAcked = true;
    report.backAcked++;
    report.lastBackAckedAt = Math.max(report.lastBackAckedAt, clock());
  });
}

function connected(device: Device): void {
  const at = clock();
  device.connected = true;
  report.connected++;
  if (!device.ever) {
    device.ever = true;
    report.everConnected++;
    report.lastConnackAt = Math.max(report.lastConnackAt, at);
  }
  if (marked && device.backAt === undefined) {
    device.backAt = at;
    report.back++;
    report.lastBackAt = Math.max(report.lastBackAt, at);
  }
  if (publishing) publish(device);
}

function closed(device: Device, wasConnected: boolean): void {
  if (!wasConnected) return; // a failed attempt, not a lost connection
  device.connected = false;
  report.connected--;
  if (marked) report.dropped++;
}

const server = new URL(url);

/**
 * Devices connecting to a loopback server come from addresses of 127.0.0.0/8, DEVICES_PER_ADDRESS each, as a fleet
 * comes from many addresses. From one address, connect() searches the kernel's ephemeral ports (half of 32768-60999
 * go to connect) for a free one: past ~14,000 connections each took 0.4-1.3 ms of kernel time instead of 30 µs,
 * charged to the generators on the cores the server is measured on.
 */
const DEVICES_PER_ADDRESS = 1_000;
const sourceAddress = (slot: number) => `127.0.${1 + Math.floor(slot / DEVICES_PER_ADDRESS / 250)}.${1 + (Math.floor(slot / DEVICES_PER_ADDRESS) % 250)}`;

function open(device: Device): LightClient {
  return new LightClient({
    host: server.hostname,
    port: Number(server.port),
    localAddress: sourceAddress(device.slot),
    username: device.code,
    password,
    clientId: device.code,
    keepaliveS: 60,
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    // Not in step: a fleet that retries in lockstep hits the server in waves no real fleet makes.
    retryMs: 750 + Math.floor(Math.random() * 500),
    onConnect: () => connected(device),
    onClose: (wasConnected) => closed(device, wasConnected),
    onError: countError,
  });
}

async function connectAll(codes: string[], firstSlot: number): Promise<void> {
  report.devices = codes.length;
  report.firstConnectAt = clock();
  for (let i = 0; i < codes.length; i++) {
    const device: Device = { code: codes[i], slot: firstSlot + i, connected: false, ever: false, backAcked: false };
    devices.push(device);
    device.client = open(device);
    if (i % SLICE === SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Counts a periodic publish that goes out more than LATE_MS after its turn. */
function onTime(dueAt: number): void {
  const lateMs = clock() - dueAt;
  if (lateMs <= LATE_MS) return;
  report.late++;
  report.worstLateMs = Math.max(report.worstLateMs, lateMs);
}

function startPublishing(startAt: number, periodMs: number, slots: number): void {
  publishing = true;
  for (const device of devices) {
    let dueAt = startAt + (device.slot / slots) * periodMs;
    const turn = () => {
      onTime(dueAt);
      // Node's interval counts its period from when it last ran.
      dueAt = clock() + periodMs;
      publish(device);
    };
    timers.push(
      setTimeout(() => {
        turn();
        timers.push(setInterval(turn, periodMs));
      }, Math.max(0, dueAt - clock())),
    );
  }
}

function markRestart(): void {
  marked = true;
  for (const device of devices) {
    device.backAt = undefined;
    device.backAcked = false;
  }
  Object.assign(report, { dropped: 0, back: 0, backAcked: 0, lastBackAt: 0, lastBackAckedAt: 0, late: 0, worstLateMs: 0 });
  send({ type: 'marked' });
}

const snapshot = (final: boolean): Reply => {
  const cpu = process.cpuUsage();
  return { type: 'report', final, ...report, cpuMs: (cpu.user + cpu.system) / 1000 };
};

function stop(): void {
  for (const timer of timers) clearInterval(timer);
  for (const device of devices) device.client?.end();
  // Exits once the report is written: a disconnect right after `send` can drop it.
  send(snapshot(true), () => process.exit(0));
}

process.on('message', (message) => {
  const command = message as Command;
  if (command.cmd === 'connect') void connectAll(command.codes, command.firstSlot);
  else if (command.cmd === 'publish') startPublishing(command.startAt, command.periodMs, command.slots);
  else if (command.cmd === 'restart') markRestart();
  else if (command.cmd === 'stop') stop();
});
// The benchmark gone (killed, interrupted), its devices go too.
process.on('disconnect', () => process.exit(0));
setInterval(() => send(snapshot(false)), REPORT_MS);
send({ type: 'ready' });
