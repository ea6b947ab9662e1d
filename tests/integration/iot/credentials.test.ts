import { beforeAll, expect, it } from 'vitest';
import { DEVICE_CREDENTIAL_RULES } from '../../../server/auth/sign-in-rules';
import { expectOk, postParams } from '../../support/envelope';
import { brokerClients } from '../../support/mqtt';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { DEMO, X } from '../monitoring/support';
import { figure, scrape } from '../ops/support';

/**
 * A device's CONNECT (docs/mqtt.md "Credentials"): scrypt once, then a verifier; wrong passwords refused, logged and,
 * past the rule, locked out; a new password at the next CONNECT; a removed identity's connection ended at once.
 */
onEveryStore('device credentials', { signIn: ['demo'], config: { deviceSignIn: { ...DEVICE_CREDENTIAL_RULES, refusalDelayMs: 100 } } }, (ctx) => {
  const identities = new Map<string, string>();
  const { connect } = brokerClients(() => ctx.server.app.broker?.port);

  const identity = async (username: string, password: string) => {
    const saved = expectOk(await ctx.demo.post<{ id: string }>(`${X}/mqttuser/submit`, { username, password, clientType: 1, clientId: username }));
    identities.set(username, saved.id);
    return saved.id;
  };
  beforeAll(async () => {
    await identity('cred-migrate', 'Device#Secret01');
    await identity('cred-guessed', 'Device#Secret02');
    await identity('cred-rotated', 'Device#Secret03');
    await identity('cred-removed', 'Device#Secret04');
  });

  const connects = async (outcome: string) => figure((await scrape(ctx.server.url, ctx.server.app.platform.config.metricsToken)).text, 'vigil_mqtt_connects_total', { outcome });
  const db = () => ctx.server.app.platform.db;
  const verifierOf = (username: string) => db().selectFrom('wit_mqtt_verifier').selectAll().where('userId', '=', identities.get(username) as string).executeTakeFirst();
  const logged = async (text: string) => {
    await ctx.server.app.platform.logs.flush();
    const rows = await db().selectFrom('blade_log_usual').select(['tenantId', 'logLevel', 'logData']).where('logId', '=', 'mqtt').execute();
    return rows.filter((row) => String(row.logData).includes(text));
  };

  it('checks an identity of before (a scrypt hash only) by scrypt once, keeps its verifier, and uses the verifier after', async () => {
    expect(await verifierOf('cred-migrate')).toBeUndefined();
    const [scrypt, verifier] = [await connects('scrypt'), await connects('verifier')];
    await (await connect('cred-migrate', 'Device#Secret01')).endAsync();
    await until(() => verifierOf('cred-migrate'), 5000, 'the verifier stored');
    const user = await db().selectFrom('wit_mqtt_user').select('password').where('username', '=', 'cred-migrate').executeTakeFirstOrThrow();
    expect(await verifierOf('cred-migrate')).toMatchObject({ tenantId: DEMO, passwordHash: user.password, verifier: expect.stringMatching(/^v1\$[0-9a-f]{8}\$/) });
    // Another identity saved: every process forgets its cached identities, so the next CONNECT reads the stored verifier.
    await identity('cred-other', 'Device#Secret09');
    await (await connect('cred-migrate', 'Device#Secret01')).endAsync();
    expect(await connects('scrypt')).toBe(scrypt + 1);
    expect(await connects('verifier')).toBe(verifier + 1);
  });

  it('refuses 200 wrong passwords at once, logs them, and then locks that address out of the identity, right password or not', async () => {
    await (await connect('cred-guessed', 'Device#Secret02')).endAsync(); // its verifier: the wrong ones cost no scrypt
    const scrypt = await connects('scrypt');
    const guesses = await Promise.allSettled(Array.from({ length: 200 }, (_, i) => connect('cred-guessed', `Wrong#Guess${i}`)));
    expect(guesses.map((g) => g.status)).toEqual(Array(200).fill('rejected'));
    for (const guess of guesses) if (guess.status === 'rejected') expect(String(guess.reason)).toMatch(/bad user ?name or password/i);
    expect(await connects('scrypt')).toBe(scrypt);
    expect((await logged('用户名或密码错误 (username=cred-guessed')).length).toBeGreaterThanOrEqual(DEVICE_CREDENTIAL_RULES.lockAfter);
    expect((await logged('用户名或密码错误 (username=cred-guessed'))[0].tenantId).toBe(DEMO);
    await expect(connect('cred-guessed', 'Device#Secret02')).rejects.toThrow(/bad user ?name or password/i);
    expect(await logged('已暂时锁定 (username=cred-guessed')).not.toHaveLength(0);
  });

  it('takes a new password at the next CONNECT and leaves the live connection, while a removed identity is cut off at once', async () => {
    const live = await connect('cred-rotated', 'Device#Secret03');
    const removed = await connect('cred-removed', 'Device#Secret04');
    const cut = new Promise<void>((resolve) => removed.once('close', () => resolve()));
    expectOk(await ctx.demo.post(`${X}/mqttuser/submit`, { id: identities.get('cred-rotated'), password: 'Device#Rotated3' }));
    expectOk(await postParams(ctx.demo, `${X}/mqttuser/remove`, { ids: identities.get('cred-removed') as string }));
    // Both changes were looked at together: the removed identity's connection ending shows the look is over.
    await cut;
    await live.publishAsync(`vigil/${DEMO}/device/cred-rotated/data`, JSON.stringify({ values: { x: 1 } }), { qos: 1 });
    expect(live.connected).toBe(true);
    await expect(connect('cred-rotated', 'Device#Secret03')).rejects.toThrow(/bad user ?name or password/i);
    await (await connect('cred-rotated', 'Device#Rotated3')).endAsync();
    await expect(connect('cred-removed', 'Device#Secret04')).rejects.toThrow(/bad user ?name or password/i);
    // Logged to the identity's tenant, with who was cut off.
    expect(await logged('MQTT 连接已断开: 身份已删除、停用或更换了客户端编号 (username=cred-removed, clientId=cred-removed)')).toEqual([
      { tenantId: DEMO, logLevel: 'warn', logData: 'MQTT 连接已断开: 身份已删除、停用或更换了客户端编号 (username=cred-removed, clientId=cred-removed)' },
    ]);
  });

  it('ends a live connection whose identity is bound to another client id, and leaves an unbound identity connected', async () => {
    const rebound = await identity('cred-rebound', 'Device#Secret05');
    expectOk(await ctx.demo.post(`${X}/mqttuser/submit`, { username: 'cred-free', password: 'Device#Secret06', clientType: 1 }));
    const bound = await connect('cred-rebound', 'Device#Secret05');
    // No client id bound: any client id will do.
    const free = await connect('cred-free', 'Device#Secret06', { clientId: 'free-7' });
    const cut = new Promise<void>((resolve) => bound.once('close', () => resolve()));
    expectOk(await ctx.demo.post(`${X}/mqttuser/submit`, { id: rebound, clientId: 'cred-elsewhere' }));
    await cut;
    await free.publishAsync(`vigil/${DEMO}/device/free-7/data`, JSON.stringify({ values: { x: 1 } }), { qos: 1 });
    expect(free.connected).toBe(true);
    expect(await logged('更换了客户端编号 (username=cred-rebound, clientId=cred-rebound)')).toHaveLength(1);
    expect(await logged('username=cred-free')).toEqual([]);
  });
});
