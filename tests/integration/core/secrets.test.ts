import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keyIdOf } from '../../../server/auth/secrets';
import type { Row as DbRow } from '../../../server/db/database';
import { loose } from '../../../server/db/tables';
import { signedIn } from '../../support/client';
import { expectOk, type PageData, type Row } from '../../support/envelope';
import { startServer, type TestServer } from '../../support/server';
import { onEveryStore } from '../../support/suite';
import { alarmMessage, setParam } from '../alarms/support';
import { type OwnerBroker, type Receiver, startOwnerBroker, startReceiver } from '../push/support';
import { until } from '../../support/wait';

/**
 * Secrets at rest (server/auth/secrets.ts, docs/security.md): what the server keeps to connect elsewhere is sealed in
 * the database whatever path wrote it, never answered nor logged, and still connects — to a real MQTT broker that
 * checks the password, an HTTP receiver that reads the token and headers, an SMTP server that checks its login.
 */

const X = '/api/wit-xinde';
const BROKER_PASSWORD = 'Owner#Broker-7731';
const TOKEN = 'tok-5519-bearer';
const SIGNING = 'sign-8823-secret';
const API_KEY = 'K-4471-header';
const SMTP_PASSWORD = 'Mail#Login-3390';
const PLAINTEXTS = [BROKER_PASSWORD, TOKEN, SIGNING, API_KEY, SMTP_PASSWORD];

const sealed = expect.stringMatching(/^enc:v1:[0-9a-f]{8}:[A-Za-z0-9_-]+$/);

/** The row as the table holds it. */
async function stored(server: TestServer, table: string, id: string): Promise<DbRow> {
  return (await loose(server.app.platform.db).selectFrom(table).selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as DbRow;
}

/** An SMTP server that accepts only `mailer` / SMTP_PASSWORD, and keeps what it receives. */
async function startSmtpWithLogin() {
  const mails: string[] = [];
  const logins: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push(`${auth.username}:${auth.password === SMTP_PASSWORD ? 'right' : 'wrong'}`);
      if (auth.username === 'mailer' && auth.password === SMTP_PASSWORD) return callback(null, { user: 'mailer' });
      return callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        mails.push(session.envelope.rcptTo.map((r) => r.address).join(','));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.server.address() as AddressInfo).port, mails, logins, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

onEveryStore('secrets at rest', { signIn: ['demo', 'admin'] }, (ctx) => {
  let broker: OwnerBroker;
  let receiver: Receiver;
  beforeAll(async () => {
    broker = await startOwnerBroker('owner', BROKER_PASSWORD);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await broker?.close();
    await receiver?.close();
  });

  const testTarget = async (id: string) => expectOk(await ctx.demo.post<{ success: boolean; message: string }>(`${X}/subtable/testMQTT`, { id }));

  it("seals a push target's password, token, signing key and headers; answers none; still connects with them", async () => {
    const mqttTarget = expectOk(await ctx.demo.post<Row>(`${X}/mqttparam/submit`, { name: '密码代理', pushType: 1, brokerUrl: broker.url, username: 'owner', password: BROKER_PASSWORD, topic: 'vigil/secrets', enabled: 0 }));
    const httpTarget = expectOk(
      await ctx.demo.post<Row>(`${X}/mqttparam/submit`, { name: '令牌接收', pushType: 2, url: `${receiver.url}/push`, token: TOKEN, secret: SIGNING, headers: JSON.stringify({ 'X-Api-Key': API_KEY }), enabled: 0 }),
    );
    expect(await stored(ctx.server, 'wit_mqtt_param', mqttTarget.id)).toMatchObject({ username: 'owner', password: sealed });
    expect(await stored(ctx.server, 'wit_mqtt_param', httpTarget.id)).toMatchObject({ token: sealed, secret: sealed, headers: sealed });

    // Never answered: not by the save, the list, the detail or the select variant.
    const answers = [
      mqttTarget,
      httpTarget,
      expectOk(await ctx.demo.get<PageData>(`${X}/mqttparam/list`, { size: 100 })),
      expectOk(await ctx.demo.get<Row>(`${X}/mqttparam/detail`, { id: httpTarget.id })),
      expectOk(await ctx.demo.get<Row[]>(`${X}/mqttparam/select`)),
    ];
    for (const answer of answers) for (const plain of PLAINTEXTS) expect(JSON.stringify(answer)).not.toContain(plain);
    expect(JSON.stringify(answers)).not.toContain('enc:v1:');
    expect(expectOk(await ctx.demo.get<Row>(`${X}/mqttparam/detail`, { id: httpTarget.id }))).not.toHaveProperty('headers');
    const listed = expectOk(await ctx.demo.get<PageData>(`${X}/mqttparam/list`, { size: 100 })).records;
    expect(listed.find((r) => r.id === httpTarget.id)).toMatchObject({ hasToken: 1, hasSecret: 1, hasHeaders: 1, hasPassword: 0 });

    // The broker checks the password; the receiver gets the token, the signature and the header.
    expect(await testTarget(mqttTarget.id)).toMatchObject({ success: true });
    // The target's PUBACK comes from the broker, before the broker's own subscriber has the message.
    await until(() => broker.messages.some((m) => m.body.test === true), 5000, 'the test message at the broker');
    expect(await testTarget(httpTarget.id)).toMatchObject({ success: true });
    const posted = receiver.posted.find((p) => p.body.test === true);
    expect(posted?.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'x-api-key': API_KEY, 'x-vigil-signature': expect.stringMatching(/^sha256=/) });

    // An edit leaving them blank keeps them: the broker still lets the target in.
    expectOk(await ctx.demo.post(`${X}/mqttparam/submit`, { id: mqttTarget.id, name: '密码代理(改名)', password: '' }));
    expect(await stored(ctx.server, 'wit_mqtt_param', mqttTarget.id)).toMatchObject({ password: sealed });
    expect(await testTarget(mqttTarget.id)).toMatchObject({ success: true });
    // A wrong password is refused by the broker: the stored one is what connected.
    expectOk(await ctx.demo.post(`${X}/mqttparam/submit`, { id: mqttTarget.id, password: 'wrong-password' }));
    expect(await testTarget(mqttTarget.id)).toMatchObject({ success: false });
    expectOk(await ctx.demo.post(`${X}/mqttparam/submit`, { id: mqttTarget.id, password: BROKER_PASSWORD }));
  });

  it('seals the SMTP password param, answers it masked, keeps it on an edit and signs in to the SMTP server with it', async () => {
    const smtp = await startSmtpWithLogin();
    try {
      const set = async (key: string, value: string) => expectOk(await setParam(ctx.demo, key, value));
      await set('alarm.smtp.host', '127.0.0.1');
      await set('alarm.smtp.port', String(smtp.port));
      await set('alarm.smtp.secure', 'false');
      await set('alarm.smtp.user', 'mailer');
      const password = await set('alarm.smtp.password', SMTP_PASSWORD);
      expect(password.paramValue).toBe('******');
      expect((await stored(ctx.server, 'blade_param', password.id)).paramValue).toEqual(sealed);

      const listed = expectOk(await ctx.demo.get<PageData>('/api/blade-system/param/list', { paramKey_equal: 'alarm.smtp.password' })).records;
      expect(listed).toEqual([expect.objectContaining({ id: password.id, paramValue: '******' })]);
      expect(expectOk(await ctx.demo.get<Row>('/api/blade-system/param/detail', { id: password.id })).paramValue).toBe('******');
      // The plaintext cannot be found by filtering on a part of it (the table holds none of it).
      expect(expectOk(await ctx.demo.get<PageData>('/api/blade-system/param/list', { paramValue: 'Mail#Login' })).total).toBe(0);
      // Other params are shown as they are.
      expect(expectOk(await ctx.demo.get<PageData>('/api/blade-system/param/list', { paramKey_equal: 'alarm.smtp.user' })).records[0].paramValue).toBe('mailer');

      // The console sends the mask back when only the name changes: the password stays.
      expectOk(await ctx.demo.post('/api/blade-system/param/submit', { id: password.id, paramName: 'SMTP 密码', paramKey: 'alarm.smtp.password', paramValue: '******' }));
      const kept = String((await stored(ctx.server, 'blade_param', password.id)).paramValue);
      expect(ctx.server.app.platform.secrets.open(kept)).toBe(SMTP_PASSWORD);

      const person = { key: 'user:mail', recipientId: null, userId: null, name: '业主', email: 'owner@example.com' };
      await ctx.server.app.alarms.notifier.channels.send('email', person, alarmMessage('100001'));
      expect(smtp.logins).toEqual(['mailer:right']);
      expect(smtp.mails).toEqual(['owner@example.com']);
    } finally {
      await smtp.close();
    }
  });

  it('seals OSS, SMS, third-party and data source secrets on save, and answers none of them', async () => {
    const S3_KEY = 's3-secret-6621';
    const SMS_KEY = 'sms-secret-9034';
    const REMOTE_PASSWORD = 'Remote#Pass-4410';
    const CLIENT_SECRET = 'client-secret-1187';
    const DB_PASSWORD = 'db-pass-2290';
    const oss = expectOk(
      await ctx.demo.post<Row>('/api/blade-resource/oss/submit', { category: 2, ossCode: 'sealed-s3', endpoint: 'https://s3.example.com', accessKey: 'AKID', secretKey: S3_KEY, bucketName: 'vigil' }),
    );
    const sms = expectOk(await ctx.demo.post<Row>('/api/blade-resource/sms/submit', { category: 2, smsCode: 'sealed-sms', templateId: 'T1', secretKey: SMS_KEY }));
    const third = expectOk(
      await ctx.demo.post<Row>(`${X}/thirdmonitorparam/submit`, { name: '密钥平台', baseUrl: 'https://monitor.example.com', username: 'sync', password: REMOTE_PASSWORD, clientId: 'saber', clientSecret: CLIENT_SECRET, intervalSeconds: 0, enabled: 0 }),
    );
    const source = expectOk(
      await ctx.admin.post<Row>('/api/blade-develop/datasource/submit', { name: 'sealed', driverClass: 'org.postgresql.Driver', url: 'jdbc:postgresql://127.0.0.1/x', username: 'r', password: DB_PASSWORD }),
    );
    const { secrets } = ctx.server.app.platform;
    const checks: Array<[table: string, id: string, field: string, plain: string]> = [
      ['blade_oss', oss.id, 'secretKey', S3_KEY],
      ['blade_sms', sms.id, 'secretKey', SMS_KEY],
      ['wit_third_param', third.id, 'password', REMOTE_PASSWORD],
      ['wit_third_param', third.id, 'clientSecret', CLIENT_SECRET],
      ['blade_datasource', source.id, 'password', DB_PASSWORD],
    ];
    for (const [table, id, field, plain] of checks) {
      const value = (await stored(ctx.server, table, id))[field];
      expect(value, `${table}.${field}`).toEqual(sealed);
      expect(secrets.open(String(value))).toBe(plain);
    }
    const answers = JSON.stringify([
      oss, sms, third, source,
      expectOk(await ctx.demo.get('/api/blade-resource/oss/list')),
      expectOk(await ctx.demo.get('/api/blade-resource/sms/detail', { id: sms.id })),
      expectOk(await ctx.demo.get(`${X}/thirdmonitorparam/list`)),
      expectOk(await ctx.admin.get('/api/blade-develop/datasource/list')),
    ]);
    for (const [, , , plain] of checks) expect(answers).not.toContain(plain);
    expect(answers).not.toContain('enc:v1:');
  });

  it('never writes a secret to the API log', async () => {
    await ctx.server.app.platform.logs.flush();
    const logged = (await loose(ctx.server.app.platform.db).selectFrom('blade_log_api').select(['params']).execute()) as DbRow[];
    expect(logged.length).toBeGreaterThan(5);
    const text = JSON.stringify(logged);
    for (const plain of PLAINTEXTS) expect(text).not.toContain(plain);
    expect(text).toContain('******');
  });
});

onEveryStore('secrets stored in clear before, and a new key', (ctx) => {
  let broker: OwnerBroker;
  let servers: TestServer[] = [];
  beforeAll(async () => {
    broker = await startOwnerBroker('owner', BROKER_PASSWORD);
  });
  afterAll(async () => {
    for (const server of servers) await server.stop({ keepStore: true });
    await servers.at(-1)?.storage.remove();
    await broker?.close();
  });

  it('seals plaintext rows at the next start, re-seals them under a new key, and connects throughout', async () => {
    // A server of its own: this test restarts it on its store.
    let server = await startServer(ctx.store);
    servers = [server];
    const demo = await signedIn(server.url, 'admin', 'admin', '100001');
    const target = expectOk(await demo.post<Row>(`${X}/mqttparam/submit`, { name: '旧明文', pushType: 1, brokerUrl: broker.url, username: 'owner', password: 'placeholder', topic: 'vigil/legacy', enabled: 0 }));
    // As a database of before holds it: in clear.
    await loose(server.app.platform.db).updateTable('wit_mqtt_param').set({ password: BROKER_PASSWORD }).where('id', '=', target.id).execute();
    expect((await stored(server, 'wit_mqtt_param', target.id)).password).toBe(BROKER_PASSWORD);
    // Plaintext of before still connects.
    expect(expectOk(await demo.post<{ success: boolean }>(`${X}/subtable/testMQTT`, { id: target.id }))).toMatchObject({ success: true });

    const oldKey = server.app.platform.config.secretsKeys[0];
    await server.stop({ keepStore: true });
    server = await startServer(ctx.store, {}, undefined, server.storage);
    servers.push(server);
    const once = String((await stored(server, 'wit_mqtt_param', target.id)).password);
    expect(once).toEqual(sealed);
    expect(once.startsWith(`enc:v1:${keyIdOf(oldKey)}:`)).toBe(true);

    // A rotation: the new key first, the old one after it while the start re-seals.
    const newKey = randomBytes(32);
    await server.stop({ keepStore: true });
    server = await startServer(ctx.store, { secretsKeys: [newKey, oldKey] }, undefined, server.storage);
    servers.push(server);
    expect(String((await stored(server, 'wit_mqtt_param', target.id)).password).startsWith(`enc:v1:${keyIdOf(newKey)}:`)).toBe(true);

    // The old key gone: everything opens with the new one, and the broker still lets the target in.
    await server.stop({ keepStore: true });
    server = await startServer(ctx.store, { secretsKeys: [newKey] }, undefined, server.storage);
    servers.push(server);
    const again = await signedIn(server.url, 'admin', 'admin', '100001');
    expect(expectOk(await again.post<{ success: boolean }>(`${X}/subtable/testMQTT`, { id: target.id }))).toMatchObject({ success: true });

    // Under a key that opens nothing, the target says so instead of connecting.
    await server.stop({ keepStore: true });
    server = await startServer(ctx.store, { secretsKeys: [randomBytes(32)] }, undefined, server.storage);
    servers.push(server);
    const lost = await signedIn(server.url, 'admin', 'admin', '100001');
    const refused = await lost.post(`${X}/subtable/testMQTT`, { id: target.id });
    expect(refused.body).toMatchObject({ code: 400, msg: '已保存的密钥无法解密(SECRETS_KEY 可能已更换),请重新填写' });
  });
});
