import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { io } from 'socket.io-client';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_DEVICE_PASSWORD } from '../../../server/db/seed/monitoring';
import { ApiClient, SABER } from '../../support/client';
import { postParams } from '../../support/envelope';
import { freePort, startProcess, terminate } from '../../support/process';
import { scrape } from './support';

/**
 * The process log of a real server (a child process at LOG_LEVEL=debug, its stdout and stderr in a file) after a
 * realistic session — a password change, sign-ins, a refresh, API calls, a socket, a failed sign-in, a scrape, a
 * device's bad message — holds one line per request with its id and tenant, the ingest failure with its tenant, and
 * none of the secrets that went by. The log does not depend on the store: SQLite only.
 */

const TOKEN_PATH = '/api/blade-auth/oauth/token';
/** The seeded password of zhangsan (tenant 100001): changed first, so the password signed in with is this run's own. */
const SEED_PASSWORD = 'Vigil@2026';
/** Two process starts at most on a busy 2-core machine (tsx compiles the server, the first start seeds). */
const TEST_TIMEOUT_MS = 120_000;

interface Line {
  msg?: string;
  topic?: string;
  stored?: number;
  error?: string;
  reqId?: string;
  tenantId?: string | null;
  url?: string;
  route?: string | null;
  statusCode?: number;
}

describe('the process log', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-logs-'));
  const logFile = join(dataDir, 'server.log');
  const cleanups: Array<() => unknown> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('has one line per request with its id and tenant, and no password, token or secret', { timeout: TEST_TIMEOUT_MS }, async () => {
    // Secrets of this run only: none can be in the log by coincidence.
    const password = `Pw#${randomBytes(9).toString('base64url')}1a`;
    const wrongPassword = `Wrong#${randomBytes(9).toString('base64url')}1a`;
    const jwtSecret = randomBytes(24).toString('hex');
    const metricsToken = randomBytes(24).toString('hex');
    const [port, mqttPort] = [await freePort(), await freePort()];
    const server = await startProcess(
      {
        PORT: String(port), MQTT_PORT: String(mqttPort), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'debug',
        JWT_SECRET: jwtSecret, METRICS_TOKEN: metricsToken, CONSOLE_DIR: join(dataDir, 'no-console'),
      },
      { logFile },
    );
    cleanups.push(() => server.child.kill('SIGKILL'));
    const url = `http://127.0.0.1:${port}`;
    const api = new ApiClient(url, '100001');

    // Sign in with the seeded password, and change it (the passwords travel as query parameters, as BladeX sends them).
    const seeded = await api.login('zhangsan', SEED_PASSWORD);
    expect(seeded.access_token).toBeTruthy();
    const changed = await postParams(api, '/api/blade-user/update-password', { oldPassword: SEED_PASSWORD, newPassword: password, newPassword1: password });
    expect(changed.body.code, changed.body.msg).toBe(200);

    // Sign in with the new password, refresh, call the API with the token (once also in the query, as a careless client would).
    const first = await api.login('zhangsan', password);
    expect(first.access_token).toBeTruthy();
    const refreshed = (await api.request<Record<string, string>>('POST', TOKEN_PATH, { query: { grant_type: 'refresh_token', refresh_token: first.refresh_token, scope: 'all', tenantId: '100001' } })).body;
    expect(refreshed.access_token).toBeTruthy();
    api.token = refreshed.access_token;
    expect((await api.get('/api/blade-user/info')).body.code).toBe(200);
    expect((await api.get('/api/blade-user/info', { access_token: refreshed.access_token })).body.code).toBe(200);

    // A socket with the token, a failed sign-in, a scrape.
    const socket = io(url, { auth: { token: refreshed.access_token }, transports: ['websocket'], reconnection: false });
    cleanups.push(() => socket.close());
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    socket.close();
    const failed = await new ApiClient(url, '100001').login('zhangsan', wrongPassword);
    expect(failed.access_token).toBeUndefined();
    expect((await scrape(url, metricsToken)).status).toBe(200);

    // A device's malformed message: stored raw with its error, and logged with its tenant.
    const device = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { clientId: 'QJ-CRACK-01', username: 'QJ-CRACK-01', password: DEMO_DEVICE_PASSWORD, reconnectPeriod: 0 });
    cleanups.push(() => device.end(true));
    await device.publishAsync('vigil/100001/device/QJ-CRACK-01/data', '{not json', { qos: 1 });
    await device.endAsync();

    const exit = await terminate(server, 8_000);
    expect(exit).toMatchObject({ code: 0 });
    await server.logged;
    const log = readFileSync(logFile, 'utf8');

    // Positive controls: the requests are there, each on one JSON line with its id, the signed-in ones with the tenant.
    const lines = log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Line);
    const requests = lines.filter((line) => line.msg === 'request completed');
    expect(requests.length).toBeGreaterThanOrEqual(7);
    for (const line of requests) expect(line.reqId).toMatch(/^[0-9a-f-]{36}$/);
    const info = requests.filter((line) => line.route === '/blade-user/info');
    expect(info).toHaveLength(2);
    for (const line of info) expect(line).toMatchObject({ tenantId: '100001', statusCode: 200 });
    expect(info.map((line) => line.url)).toContain('/api/blade-user/info?access_token=******');
    const signIns = requests.filter((line) => line.route === '/blade-auth/oauth/token');
    expect(signIns).toHaveLength(4);
    for (const line of signIns) expect(line.url).toMatch(/(password|refresh_token)=\*{6}/);

    expect(lines.filter((line) => line.msg === 'ingest: message kept with errors')).toEqual([
      expect.objectContaining({ tenantId: '100001', topic: 'vigil/100001/device/QJ-CRACK-01/data', stored: 0, error: '不是合法的 JSON' }),
    ]);

    // No secret anywhere in the whole log: not whole, and no token's signature either.
    const secrets: Record<string, string> = {
      'the seeded password': SEED_PASSWORD,
      'the password': password,
      'the wrong password': wrongPassword,
      "the device's MQTT password": DEMO_DEVICE_PASSWORD,
      'the JWT secret': jwtSecret,
      'the metrics token': metricsToken,
      'the client secret': 'saber_secret',
      'the Basic credentials': SABER.split(' ')[1],
    };
    for (const [name, token] of Object.entries({ 'the first access token': first.access_token, 'the first refresh token': first.refresh_token, 'the access token': refreshed.access_token, 'the refresh token': refreshed.refresh_token, 'the seeded sign-in access token': seeded.access_token })) {
      secrets[name] = token;
      secrets[`${name}'s signature`] = token.split('.')[2];
    }
    const found = Object.entries(secrets).filter(([, secret]) => log.includes(secret) || log.includes(encodeURIComponent(secret)));
    expect(found.map(([name]) => name)).toEqual([]);
    expect(log).not.toMatch(/Basic /i);
  });
});
