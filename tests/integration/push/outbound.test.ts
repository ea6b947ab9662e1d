import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StoredReading } from '../../../server/ingest/types';
import { expectOk, expectRefused, type PageData, type Row } from '../../support/envelope';
import { GUARDED } from '../../support/server';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { BRIDGE, deviceOf } from '../data/support';
import { DEMO, X } from '../monitoring/support';
import { type OwnerBroker, type Receiver, startOwnerBroker, startReceiver } from './support';

/**
 * The outbound guard on push targets (docs/push.md "Outbound addresses"): a server started as a deployment is, without
 * OUTBOUND_ALLOW_PRIVATE, refuses targets on its own network when they are saved, tested and delivered to, and no
 * connection reaches the local broker and receiver standing there.
 */

const REFUSED = '指向内网或本机,已拒绝 (OUTBOUND_ALLOW_PRIVATE)';
/** A public-looking name that never resolves (RFC 6761): saved, then turned into a local address in the table. */
const NOWHERE = 'push.example.invalid';

onEveryStore('outbound guard on push targets', { signIn: ['demo'], config: GUARDED }, (ctx) => {
  let owner: OwnerBroker;
  let receiver: Receiver;
  /** The owner's broker by name: `localhost` resolves to 127.0.0.1. */
  let ownerByName: string;

  const post = <T = unknown>(path: string, body?: unknown) => ctx.demo.post<T>(`${X}/${path}`, body);
  const target = async (body: Record<string, unknown>) => expectOk(await post<Row>('mqttparam/submit', { flushInterval: 200, timeout: 2000, ...body }));
  const logs = async (query: Record<string, string | number>) => expectOk(await ctx.demo.get<PageData>(`${X}/apisendlog/list`, { size: 100, ...query })).records;
  /** What DNS would do to a saved name: the stored address now leads to this machine. */
  const repoint = (id: string, values: Record<string, string>) => ctx.server.app.platform.db.updateTable('wit_mqtt_param').set(values).where('id', '=', id).execute();
  const nothingArrived = () => {
    expect(receiver.posted).toEqual([]);
    expect(owner.messages).toEqual([]);
  };

  beforeAll(async () => {
    ctx.server.app.push.forwarder.retry = { attempts: 3, baseMs: 50, maxMs: 200 };
    owner = await startOwnerBroker('owner', 'Owner#Push2026');
    receiver = await startReceiver();
    ownerByName = owner.url.replace('127.0.0.1', 'localhost');
  });
  afterAll(async () => {
    await owner?.close();
    await receiver?.close();
  });

  it('refuses a target on the platform’s own network when it is saved, and writes nothing', async () => {
    const local: Array<[string, Record<string, unknown>]> = [
      ['本机 MQTT', { pushType: 1, brokerUrl: owner.url }],
      ['本机名称', { pushType: 1, brokerUrl: ownerByName }],
      ['IPv6 本机', { pushType: 1, brokerUrl: 'mqtt://[::1]:1883' }],
      ['元数据', { pushType: 2, url: 'http://169.254.169.254/latest/meta-data/' }],
      ['本机 HTTP', { pushType: 2, url: receiver.url }],
      ['名称 HTTP', { pushType: 2, url: receiver.url.replace('127.0.0.1', 'localhost') }],
      ['映射地址', { pushType: 2, url: 'http://[::ffff:127.0.0.1]:5432/' }],
      ['内网', { pushType: 2, url: 'http://10.0.0.8/push' }],
    ];
    for (const [name, body] of local) {
      const reply = await post('mqttparam/submit', { name, ...body });
      expectRefused(reply, REFUSED);
      expect(expectOk(await ctx.demo.get<PageData>(`${X}/mqttparam/list`, { name })).total, name).toBe(0);
    }

    // A name that does not resolve now is saved (it is judged again at every connection); an edit to a local address
    // is refused and leaves the row as it was; other edits are fine.
    const saved = await target({ name: '外部平台', pushType: 2, url: `http://${NOWHERE}/data` });
    expectRefused(await post('mqttparam/update', { id: saved.id, url: 'http://127.0.0.1:5432/' }), REFUSED);
    expectRefused(await post('mqttparam/update', { id: saved.id, pushType: 1, brokerUrl: 'mqtt://localhost:1883' }), REFUSED);
    expect(expectOk(await ctx.demo.get<Row>(`${X}/mqttparam/detail`, { id: saved.id }))).toMatchObject({ url: `http://${NOWHERE}/data`, pushType: 2 });
    expectOk(await post('mqttparam/update', { id: saved.id, remark: '仍可修改' }));
    nothingArrived();
  });

  it('refuses to test a target on the platform’s own network, typed in or saved, and logs the saved one', async () => {
    for (const body of [
      { pushType: 2, url: receiver.url },
      { pushType: 2, url: 'http://169.254.169.254/latest/meta-data/' },
      { pushType: 1, brokerUrl: owner.url, username: 'owner', password: 'Owner#Push2026' },
      { pushType: 1, brokerUrl: ownerByName, username: 'owner', password: 'Owner#Push2026' },
      { pushType: 1, brokerUrl: ownerByName.replace('mqtt:', 'ws:') },
    ]) {
      const answer = expectOk(await post<{ success: boolean; message: string }>('subtable/testMQTT', body));
      expect(answer.success, JSON.stringify(body)).toBe(false);
      expect(answer.message).toContain(REFUSED);
    }

    const saved = await target({ name: '改指本机', pushType: 1, brokerUrl: `mqtt://${NOWHERE}:1883`, username: 'owner', password: 'Owner#Push2026' });
    await repoint(String(saved.id), { brokerUrl: ownerByName });
    const answer = expectOk(await post<{ success: boolean; message: string }>('subtable/testMQTT', { id: saved.id }));
    expect(answer).toMatchObject({ success: false, message: `目标地址 localhost ${REFUSED}` });
    await ctx.server.app.push.idle();
    const [logged] = await logs({ mqttParamId: String(saved.id), trigger: 'test' });
    expect(logged).toMatchObject({ state: 2, error: `目标地址 localhost ${REFUSED}` });
    nothingArrived();
  });

  it('refuses at delivery: the refusal is in the push log and the binding, is not retried, and nothing arrives', async () => {
    const http = await target({ name: '投递 HTTP', pushType: 2, url: `http://${NOWHERE}/data` });
    const broker = await target({ name: '投递 MQTT', pushType: 1, brokerUrl: `mqtt://${NOWHERE}:1883`, username: 'owner', password: 'Owner#Push2026' });
    // One literal address, one name that now resolves to this machine.
    await repoint(String(http.id), { url: receiver.url });
    await repoint(String(broker.id), { brokerUrl: ownerByName });
    const bindings: Row[] = [];
    for (const t of [http, broker]) bindings.push(...expectOk(await post<{ bindings: Row[] }>('tenantproject/setTenantProject', { mqttParamId: t.id, projectIds: [BRIDGE] })).bindings);

    const ts = Date.now() - 1000;
    const reading: StoredReading = { tenantId: DEMO, projectId: BRIDGE, deviceId: deviceOf('QJ-RAIN-01'), deviceCode: 'QJ-RAIN-01', pointKey: 'rainfall', ts, value: 2.5, raw: 2.5 };
    ctx.server.app.platform.events.emit('readings', [reading]);
    for (const [binding, host] of [
      [bindings[0], '127.0.0.1'],
      [bindings[1], 'localhost'],
    ] as const) {
      const rows = await until(async () => {
        await ctx.server.app.push.idle();
        const found = await logs({ tenantProjectId: String(binding.id) });
        return found.length > 0 && found;
      }, 8000, `the refusal of ${host} logged`);
      // Not retried: one attempt, the refusal as its error.
      const error = expect.stringContaining(`目标地址 ${host} ${REFUSED}`);
      expect(rows).toEqual([expect.objectContaining({ trigger: 'realtime', attempt: 1, state: 2, readings: 1, error })]);
      const state = expectOk(await ctx.demo.get<Row>(`${X}/tenantproject/detail`, { id: String(binding.id) }));
      expect(state).toMatchObject({ lastState: 2, lastError: error });
    }

    // A manual push of the latest values fails with the refusal.
    expectOk(await post('devicelog/submit', { deviceId: deviceOf('QJ-RAIN-01'), pointKey: 'rainfall', ts, value: 2.5 }));
    for (const t of [http, broker]) expectRefused(await post('tenantproject/pushDataByDev2', { mqttParamId: t.id, deviceIds: deviceOf('QJ-RAIN-01') }), `推送失败: 目标地址`);
    nothingArrived();
    for (const binding of bindings) expectOk(await post('tenantproject/update', { id: String(binding.id), enabled: 0 }));
  });
});
