import { afterAll, beforeAll, expect, it } from 'vitest';
import type { StoredReading } from '../../../server/ingest/types';
import { expectOk, type PageData, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';
import { DEMO, X } from '../monitoring/support';
import { type Receiver, startReceiver } from './support';

/**
 * Which readings a full push queue drops (server/push/lane.ts): while a batch is in flight, the queue keeps the newest
 * `maxQueue` readings and drops the oldest; the batch in flight is sent whole, the kept ones follow in order, and the
 * drop is logged with its count.
 */
onEveryStore('a full push queue', { signIn: ['demo'] }, (ctx) => {
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    receiver.hold = undefined;
    await receiver.close();
  });

  it('drops the oldest waiting readings, sends the batch in flight and the newest, in order', async () => {
    const project = expectOk(await ctx.demo.post<Row>(`${X}/project/submit`, { name: '队列丢弃项目', code: 'PUSH-DROP' }));
    const unit = expectOk(await ctx.demo.post<Row>(`${X}/device/submit`, { code: 'PUSH-DROP-01', name: '队列丢弃设备', projectId: project.id }));
    const target = expectOk(await ctx.demo.post<Row>(`${X}/mqttparam/submit`, { name: '慢平台', pushType: 2, url: receiver.url, batchSize: 2, flushInterval: 100, timeout: 10_000 }));
    const [binding] = expectOk(await ctx.demo.post<{ bindings: Row[] }>(`${X}/tenantproject/setTenantProject`, { mqttParamId: target.id, projectIds: [project.id] })).bindings;
    const forwarder = ctx.server.app.push.forwarder;
    forwarder.maxQueue = 5;
    let release = () => {};
    receiver.hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      const now = Date.now();
      const reading = (i: number): StoredReading => ({ tenantId: DEMO, projectId: String(project.id), deviceId: String(unit.id), deviceCode: 'PUSH-DROP-01', pointKey: 'v', ts: now + i, value: i, raw: i });
      ctx.server.app.platform.events.emit('readings', [reading(0), reading(1)]);
      await until(() => receiver.posted.length === 1, 5000, 'the first batch in flight');
      // 20 more while it is held: 5 fit, the 15 oldest of them (2 … 16) go.
      ctx.server.app.platform.events.emit('readings', Array.from({ length: 20 }, (_v, i) => reading(i + 2)));
      // The forwarder looks the binding up before queueing: the queue holds the batch in flight and the 5 kept.
      await until(() => forwarder.queued(String(binding.id)) === 2 + 5, 5000, 'the readings queued');
      release();
      receiver.hold = undefined;
      const sent = await until(() => {
        const values = receiver.posted.map((p) => p.body.readings.map((r) => r.values.v));
        return values.flat().includes(21) && values;
      }, 5000, 'the newest reading sent');
      expect(sent).toEqual([[0, 1], [17, 18], [19, 20], [21]]);
      await forwarder.idle();
      const dropped = expectOk(await ctx.demo.get<PageData>(`${X}/apisendlog/list`, { tenantProjectId: String(binding.id), state: 3 })).records;
      expect(dropped.map((r) => [r.readings, String(r.error).includes('丢弃最早的 15 条')])).toEqual([[15, true]]);
    } finally {
      release();
      forwarder.maxQueue = 10_000;
    }
  });
});
