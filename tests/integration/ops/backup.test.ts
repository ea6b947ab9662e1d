import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../../tools/backup/manifest';
import { type ApiClient, signedIn } from '../../support/client';
import { createPgDatabase, postgresReachable } from '../../support/databases';
import { expectOk } from '../../support/envelope';
import { freePort, type ServerProcess, startProcess, terminate } from '../../support/process';

/**
 * `npm run backup` and `npm run restore` as an operator runs them: a backup of a real server process taken while a
 * device keeps publishing into it, restored into a fresh data folder (and database), and a second server started on
 * the restored data answering the same rows, the same series and the same attachment bytes (docs/operations.md
 * "Backup and restore").
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** Two server starts (tsx compiles the server, the first start seeds), two npm commands: slow on a busy 2-core machine. */
const FLOW_TIMEOUT_MS = 240_000;
const EXIT_BOUND_MS = 8_000;
const X = '/api/wit-xinde';
const DEVICE = { code: 'BK-STRAIN-01', password: 'Backup#Strain01' };
/** The series starts an hour back, one point a second: every point is a distinct, ordered timestamp. */
const T0 = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
/** The history call answers raw points up to its width (5000 at most): the writer stops short of that. */
const MAX_POINTS = 4500;

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run <script> -- …args` in the repository, with the store given by `env` only (not the test's own). */
function npmRun(script: 'backup' | 'restore', args: readonly string[], env: Record<string, string> = {}): Promise<Ran> {
  const { DATA_DIR: _dataDir, DATABASE_URL: _databaseUrl, ...inherited } = process.env;
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], { cwd: ROOT, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** A real server process on its own ports; no JWT_SECRET, so it generates DATA_DIR/jwt-secret as a deployment does. */
async function deploy(dataDir: string, databaseUrl?: string): Promise<{ url: string; mqttPort: number; server: ServerProcess }> {
  const [port, mqttPort] = [await freePort(), await freePort()];
  const env = {
    PORT: String(port), MQTT_PORT: String(mqttPort), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', CONSOLE_DIR: join(dataDir, '..', 'no-console'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  return { url: `http://127.0.0.1:${port}`, mqttPort, server: await startProcess(env) };
}

/** What the first server was given through its API: a project, a device with a point and a broker identity, an upload. */
interface Fixture {
  projectId: string;
  deviceId: string;
  attachId: string;
  /** The object name of the upload: its path under upload/ and in the file link. */
  objectName: string;
  bytes: Buffer;
}

async function populate(api: ApiClient, url: string): Promise<Fixture> {
  const project = expectOk(await api.post<{ id: string }>(`${X}/project/submit`, { name: '备份测试桥', code: 'BACKUP-BRIDGE' }));
  const device = expectOk(await api.post<{ id: string }>(`${X}/device/submit`, { code: DEVICE.code, name: '备份应变计', projectId: project.id }));
  expectOk(await api.post(`${X}/devicepoint/submit`, { deviceId: device.id, pointKey: 'strain', name: '应变', unit: 'με', channel: 1 }));
  expectOk(await api.post(`${X}/mqttuser/submit`, { username: DEVICE.code, password: DEVICE.password, clientType: 1, clientId: DEVICE.code }));
  const bytes = randomBytes(150_000);
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), 'inspection.pdf');
  const response = await fetch(`${url}/api/blade-resource/oss/endpoint/put-file`, { method: 'POST', headers: api.headers(), body: form });
  const uploaded = ((await response.json()) as { data: { attachId: string; name: string } }).data;
  return { projectId: project.id, deviceId: device.id, attachId: uploaded.attachId, objectName: uploaded.name, bytes };
}

/** The device, publishing one reading at a time at QoS 1: `acked` lists, in order, the points stored so far. */
class Device {
  readonly acked: number[] = [];
  private writing?: Promise<void>;
  private stopped = false;

  private constructor(private readonly client: MqttClient) {}

  static async connect(mqttPort: number): Promise<Device> {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { clientId: DEVICE.code, username: DEVICE.code, password: DEVICE.password, reconnectPeriod: 0 });
    return new Device(client);
  }

  /** A PUBACK means the point is committed (docs/ingest.md): so the database holds the points in `acked` order. */
  async publish(): Promise<void> {
    const ts = T0 + this.acked.length * 1000;
    await this.client.publishAsync(`vigil/100001/device/${DEVICE.code}/data`, JSON.stringify({ ts, values: { strain: valueAt(ts) } }), { qos: 1 });
    this.acked.push(ts);
  }

  /** Keeps publishing until stop(). */
  start(): void {
    this.writing = (async () => {
      while (!this.stopped && this.acked.length < MAX_POINTS) await this.publish();
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.writing;
    await this.client.endAsync();
  }
}

const valueAt = (ts: number) => Math.round(Math.sin(ts / 60_000) * 1000) / 10;

/** The device's raw strain series as the history chart answers it. */
async function history(api: ApiClient, deviceId: string): Promise<Array<[number, number]>> {
  const chart = expectOk(await api.get<{ series: Array<{ pointKey: string; bucketMs: number; data: Array<[number, number]> }> }>(`${X}/devicelog/getHistoryEchartsData`, { deviceId, pointKey: 'strain', startTime: T0, endTime: T0 + MAX_POINTS * 1000, width: 5000 }));
  expect(chart.series[0].bucketMs).toBe(0);
  return chart.series[0].data;
}

/** What a server answers about the fixture: the rows read back through the API and the upload's bytes. */
async function answers(api: ApiClient, url: string, fixture: Fixture) {
  const project = expectOk(await api.get<Record<string, unknown>>(`${X}/project/detail`, { id: fixture.projectId }));
  const device = expectOk(await api.get<Record<string, unknown>>(`${X}/device/detail`, { id: fixture.deviceId }));
  const attach = expectOk(await api.get<Record<string, unknown>>('/api/blade-resource/attach/detail', { id: fixture.attachId }));
  const file = await fetch(`${url}/api/blade-resource/oss/endpoint/file/${fixture.objectName}`);
  expect(file.status).toBe(200);
  return {
    project: { name: project.name, code: project.code },
    device: { code: device.code, name: device.name, projectId: device.projectId },
    attach: { name: attach.name, originalName: attach.originalName, attachSize: attach.attachSize },
    bytes: Buffer.from(await file.arrayBuffer()),
  };
}

/** The one backup folder `out` holds. */
function backupIn(out: string): string {
  const folders = readdirSync(out);
  expect(folders).toHaveLength(1);
  expect(folders[0]).toMatch(/^vigil-\d{8}T\d{6}Z$/);
  return join(out, folders[0]);
}

/**
 * A long read on the live SQLite database (a report, an export), its snapshot taken before the test writes anything:
 * while it lasts no checkpoint can move later commits into the database file, so the test's rows and points are in
 * the WAL only. A backup that copied the file would miss them; SQLite's backup API reads them through the WAL.
 */
function holdSnapshot(file: string): { close(): void } {
  const reader = new SQLite(file, { readonly: true, fileMustExist: true });
  reader.exec('begin');
  reader.prepare('select count(*) from wit_project').pluck().get();
  return {
    close: () => {
      if (!reader.open) return;
      reader.exec('commit');
      reader.close();
    },
  };
}

/** Flips one byte of a file in place. */
function damage(file: string, at: number): void {
  const bytes = readFileSync(file);
  bytes[at] ^= 0xff;
  writeFileSync(file, bytes);
}

interface Flow {
  store: 'sqlite' | 'postgres';
  /** Makes the source and target databases (PostgreSQL): their URLs. */
  databases?: () => Promise<{ source: string; target: string }>;
}

/**
 * The whole flow on one store: populate a running server, back it up while its device publishes, restore into a fresh
 * data folder (and database), start a second server there and compare. Returns what the refusal tests reuse.
 */
function describeFlow({ store, databases }: Flow): { root(): string; backup(): string; dataDir(): string } {
  let root = '';
  let dataDir = '';
  const cleanups: Array<() => unknown> = [];
  let made: string | undefined;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), `vigil-backup-${store}-`));
    dataDir = join(root, 'data');
  });
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('backs up a running server while its device publishes; a server on the restored data answers the same', async () => {
    const urls = await databases?.();
    const first = await deploy(dataDir, urls?.source);
    cleanups.push(() => first.server.child.kill('SIGKILL'));
    const reader = store === 'sqlite' ? holdSnapshot(join(dataDir, 'vigil.sqlite')) : undefined;
    if (reader) cleanups.push(() => reader.close());
    const api = await signedIn(first.url, 'admin', 'admin', '100001');
    const fixture = await populate(api, first.url);
    const device = await Device.connect(first.mqttPort);
    for (let i = 0; i < 20; i++) await device.publish();

    // The backup runs while the device keeps writing: what was acknowledged before it started is in it for sure.
    device.start();
    const ackedBefore = device.acked.length;
    const out = join(root, 'backups');
    const backup = await npmRun('backup', ['--data-dir', dataDir, '--out', out], urls ? { DATABASE_URL: urls.source } : {});
    const ackedAfter = device.acked.length;
    await device.stop();
    reader?.close();
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain('Backup written');
    expect(ackedAfter, 'points were committed while the backup ran').toBeGreaterThan(ackedBefore);
    made = backupIn(out);

    const manifest = JSON.parse(readFileSync(join(made, 'manifest.json'), 'utf8')) as Manifest;
    expect(manifest).toMatchObject({ format: 1, store, migration: expect.stringMatching(/^\d{4}_/) });
    expect(manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(['jwt-secret', `upload/${fixture.objectName}`]));
    expect(manifest.files.find((f) => f.path === 'jwt-secret')?.mode).toBe(0o600);

    const before = await answers(api, first.url, fixture);
    expect(before.bytes.equals(fixture.bytes)).toBe(true);
    expect(await history(api, fixture.deviceId)).toEqual(device.acked.map((ts) => [ts, valueAt(ts)]));

    // Restoring over the running server's data is refused, --force or not.
    if (store === 'sqlite') {
      const busy = await npmRun('restore', [made, '--data-dir', dataDir, '--force']);
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain('is in use');
    } else {
      const busy = await npmRun('restore', [made, '--data-dir', join(root, 'elsewhere'), '--force'], { DATABASE_URL: urls?.source ?? '' });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toMatch(/in use by \d+ other session/);
    }

    const restoredDir = join(root, 'restored');
    const restored = await npmRun('restore', [made, '--data-dir', restoredDir], urls ? { DATABASE_URL: urls.target } : {});
    expect(restored.code, restored.stderr).toBe(0);
    expect(readFileSync(join(restoredDir, 'jwt-secret'), 'utf8')).toBe(readFileSync(join(dataDir, 'jwt-secret'), 'utf8'));
    expect(await terminate(first.server, EXIT_BOUND_MS)).toMatchObject({ code: 0 });

    const second = await deploy(restoredDir, urls?.target);
    cleanups.push(() => second.server.child.kill('SIGKILL'));
    // The first server's token still signs in: the JWT secret came back with the data.
    const again = Object.assign(await signedIn(second.url, 'admin', 'admin', '100001'), { token: api.token });
    expect(await answers(again, second.url, fixture)).toEqual(before);
    // A snapshot of one moment: exactly the first k points, k at least those acknowledged before the backup began.
    const series = await history(again, fixture.deviceId);
    expect(series.length).toBeGreaterThanOrEqual(ackedBefore);
    expect(series).toEqual(device.acked.slice(0, series.length).map((ts) => [ts, valueAt(ts)]));
    expect(await terminate(second.server, EXIT_BOUND_MS)).toMatchObject({ code: 0 });
  }, FLOW_TIMEOUT_MS);

  return {
    root: () => root,
    dataDir: () => dataDir,
    backup: () => {
      if (!made) throw new Error('the flow test made no backup');
      return made;
    },
  };
}

describe('backup and restore on SQLite', () => {
  const flow = describeFlow({ store: 'sqlite' });

  it('refuses a target holding data without --force, and replaces it with --force', async () => {
    const target = join(flow.root(), 'restored');
    const refused = await npmRun('restore', [flow.backup(), '--data-dir', target]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already holds data');
    expect(refused.stderr).toContain('--force');
    writeFileSync(join(target, 'upload', 'stray.txt'), 'not in the backup');
    const forced = await npmRun('restore', [flow.backup(), '--data-dir', target, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    // The uploads are the backup's, no more; and no staging folder is left behind.
    expect(existsSync(join(target, 'upload', 'stray.txt'))).toBe(false);
    expect(readdirSync(target).filter((name) => name.startsWith('.restore-'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(flow.backup(), 'manifest.json'), 'utf8')) as Manifest;
    expect(readFileSync(join(target, 'vigil.sqlite')).equals(readFileSync(join(flow.backup(), 'vigil.sqlite')))).toBe(true);
    expect(manifest.database.path).toBe('vigil.sqlite');
  }, 60_000);

  it('refuses a damaged backup by its checksums and writes nothing', async () => {
    const manifest = JSON.parse(readFileSync(join(flow.backup(), 'manifest.json'), 'utf8')) as Manifest;
    const upload = manifest.files.find((f) => f.path.startsWith('upload/'));
    if (!upload) throw new Error('the backup holds no upload');
    for (const file of [manifest.database.path, `files/${upload.path}`]) {
      const copy = mkdtempSync(join(flow.root(), 'damaged-'));
      cpSync(flow.backup(), copy, { recursive: true });
      damage(join(copy, file), 4096 + 17);
      const target = join(flow.root(), `target-of-${copy.slice(-6)}`);
      const ran = await npmRun('restore', [copy, '--data-dir', target]);
      expect(ran.code).toBe(1);
      expect(ran.stderr).toContain('does not match its checksum');
      expect(existsSync(target)).toBe(false);
    }
  }, 60_000);

  it('explains bad arguments with its usage and exit code 2', async () => {
    const none = await npmRun('restore', []);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('usage: npm run restore');
    const unknown = await npmRun('backup', ['--data-dir', flow.dataDir(), '--to', 'x']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("'--to'");
    const notBackup = await npmRun('restore', [flow.dataDir(), '--data-dir', join(flow.root(), 'never')]);
    expect(notBackup.code).toBe(1);
    expect(notBackup.stderr).toContain('is not a backup');
  }, 60_000);
});

const pgDump = spawnSync('pg_dump', ['--version']).error === undefined;
const withPostgres = (await postgresReachable()) && pgDump;
if (!withPostgres) console.warn(`backup and restore on PostgreSQL skipped: ${pgDump ? 'PostgreSQL is not reachable' : 'pg_dump is not on the PATH'}`);

describe.runIf(withPostgres)('backup and restore on PostgreSQL', () => {
  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
  });
  describeFlow({
    store: 'postgres',
    databases: async () => {
      const [source, target] = [await createPgDatabase(), await createPgDatabase()];
      drops.push(source.drop, target.drop);
      return { source: source.url, target: target.url };
    },
  });
});
