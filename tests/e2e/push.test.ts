import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, signedIn } from '../support/client';
import { type Receiver, startReceiver } from '../integration/push/support';
import { type ConsoleUnderTest, openConsole, signIn } from './support/console';
import { dialog, rowIndexOf } from './support/crud';

/** The onward-data screens of the demo tenant against the real server and a real HTTP receiver (docs/push.md). */
const DEMO = '100001';

type Row = Record<string, unknown> & { id: string };

describe('push targets, project push and the push log (tenant 100001)', () => {
  let c: ConsoleUnderTest;
  let api: ApiClient;
  let receiver: Receiver;

  /** Clicks a row's action; the tables are wider than the page and Blueprint renders visible columns only. */
  async function clickAction(text: string, action: string) {
    const index = await rowIndexOf(c.page, text);
    await c.page.locator('.vg-crud-main .bp6-table-quadrant-main .bp6-table-quadrant-scroll-container').first().evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await c.page.locator(`.bp6-table-cell-row-${index} .vg-action-${action}`).first().click();
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    c = await openConsole();
    api = await signedIn(c.server.url, 'admin', 'admin', DEMO);
    const { page } = c;
    await signIn(page, DEMO);
  });
  afterAll(async () => {
    await c?.stop();
    await receiver?.close();
  });

  it('adds an HTTP target (the form follows the push type) and tests its connection', async () => {
    const { page } = c;
    await page.goto('/xinde/mqttparam');
    await page.locator('.vg-add').click();
    await page.locator('#field-brokerUrl').waitFor();
    expect(await page.locator('#field-url').count()).toBe(0);
    await page.locator('#field-pushType').selectOption('2');
    await page.locator('#field-url').waitFor();
    expect(await page.locator('#field-brokerUrl').count()).toBe(0);
    await page.locator('#field-name').fill('E2E 省平台');
    await page.locator('#field-url').fill(receiver.url);
    await page.locator('#field-token').fill('E2E-Token-1');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();

    await clickAction('E2E 省平台', 'test');
    await page.locator('.vg-push-test-result').filter({ hasText: '连接成功' }).waitFor();
    expect(receiver.posted.some((p) => p.headers.authorization === 'Bearer E2E-Token-1' && p.body.test === true)).toBe(true);
    await dialog(page).getByRole('button', { name: '关闭' }).click();
  });

  it('pushes a bound project’s latest values from the 推送 dialog, and the attempt shows in the push log', async () => {
    const { page } = c;
    const [target] = (await api.get<{ records: Row[] }>('/api/wit-xinde/mqttparam/list', { name: 'E2E 省平台' })).body.data.records;
    const bridge = (await api.get<{ records: Row[] }>('/api/wit-xinde/project/list', { code: 'QJ-BRIDGE' })).body.data.records[0];
    await api.post('/api/wit-xinde/tenantproject/setTenantProject', { mqttParamId: target.id, projectIds: [bridge.id] });
    await api.post('/api/wit-xinde/devicelog/submit', { deviceId: (await api.get<{ records: Row[] }>('/api/wit-xinde/device/list', { code: 'QJ-RAIN-01' })).body.data.records[0].id, pointKey: 'rainfall', ts: Date.now() - 60_000, value: 3.5 });

    await page.goto('/xinde/tenantproject');
    await clickAction('钱塘江大桥健康监测', 'push');
    const push = page.locator('.vg-push-dialog');
    await push.getByText('QJ-RAIN-01').waitFor();
    await push.locator('.vg-push-latest').click();
    await push.locator('.vg-push-send').click();
    await push.locator('.vg-push-result').filter({ hasText: '已推送' }).waitFor();
    await expect.poll(() => receiver.posted.some((p) => p.body.readings?.some((r) => r.device === 'QJ-RAIN-01' && r.values.rainfall === 3.5))).toBe(true);
    await push.getByRole('button', { name: '关闭' }).click();

    await page.goto('/xinde/apisendlog');
    await page.locator('.bp6-table-cell').filter({ hasText: '钱塘江大桥健康监测' }).first().waitFor();
    await page.locator('.bp6-table-cell').filter({ hasText: receiver.url }).first().waitFor();
  });
});
