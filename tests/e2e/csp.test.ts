import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, signedIn } from '../support/client';
import { type ConsoleUnderTest, openConsole, signIn } from './support/console';
import { dialog } from './support/crud';

const DEMO = '100001';
/** The demo crack meter's broker password (docs/data-model.md). */
const DEVICE_PASSWORD = 'Vigil#Device2026';
const X = '/api/wit-xinde';

interface Listed {
  records: Array<{ id: string }>;
}

/**
 * The console under the server's content security policy (server/http/headers.ts, docs/security.md "Headers"): the main
 * screens — sign-in, home and data board, lists and forms, live debug (socket.io), history charts (ECharts), the
 * workflow designer (bpmn-js), rich text, the wall screen with its workers — cause no violation. The browser reports
 * each one as a console message and a `securitypolicyviolation` event (tests/support/browser.ts).
 */
describe('the console under its content security policy', () => {
  let c: ConsoleUnderTest;
  let api: ApiClient;
  let meter: MqttClient | undefined;

  beforeAll(async () => {
    c = await openConsole();
    api = await signedIn(c.server.url, 'admin', 'admin', DEMO);
  });
  afterAll(async () => {
    await meter?.endAsync(true);
    await c?.stop();
  });

  const shown = async (path: string, ready: string) => {
    await c.page.goto(path);
    await c.page.locator(ready).first().waitFor();
  };

  it('answers every page with the policy and the other security headers', async () => {
    const response = await c.page.goto('/login');
    const headers = response?.headers() ?? {};
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  });

  it('signs in (with the captcha image) and walks the main screens without a violation', async () => {
    const { page } = c;
    await page.goto('/login');
    await page.locator('#username').waitFor();
    await signIn(page, DEMO);
    await page.locator('.vg-sidebar').waitFor();
    await shown('/wel/dashboard', '[data-panel="alarmsPerDay"]');

    const device = (await api.get<Listed>(`${X}/device/list`, { code: 'QJ-CRACK-01' })).body.data.records[0];
    await shown('/xinde/device', '.bp6-table-cell');
    // The debug console's live messages over socket.io (its WebSocket), then the history chart drawn by ECharts.
    await shown(`/xinde/device/debug?id=${device.id}`, '.vg-debug-connection:has-text("实时连接已建立")');
    meter = await mqtt.connectAsync(`mqtt://127.0.0.1:${c.server.app.broker?.port}`, { username: 'QJ-CRACK-01', password: DEVICE_PASSWORD, clientId: 'QJ-CRACK-01', protocolVersion: 4, reconnectPeriod: 0 });
    await meter.publishAsync(`vigil/${DEMO}/device/QJ-CRACK-01/data`, JSON.stringify({ ts: Date.now() - 60_000, values: { crack: 0.5, temperature: 20 } }), { qos: 1 });
    await page.locator('.vg-debug-message', { hasText: 'crack: 0.5' }).waitFor();
    await shown(`/xinde/device/history?id=${device.id}`, '.vg-history-chart canvas');
    await shown('/xinde/alarm', '.vg-crud-main');
    await shown('/system/user', '.bp6-table-cell');

    // Rich text: the notice editor, and a notice shown with its markup.
    await shown('/desk/notice', '.vg-add');
    await page.locator('.vg-add').click();
    await page.locator('#field-content').click();
    await page.keyboard.type('维护通知');
    await dialog(page).getByRole('button', { name: '取消' }).click();

    // The workflow designer draws a model with bpmn-js.
    const models = (await api.get<Listed>('/api/blade-flow/model/list', { size: 1 })).body.data.records;
    expect(models.length).toBe(1);
    await shown(`/flow/model/design?id=${models[0].id}`, '.djs-container svg');

    expect(c.browser.errors).toEqual([]);
    expect(c.browser.violations).toEqual([]);
  });

  it('shows the wall screen, its charts and workers, without a violation', async () => {
    const projectId = (await api.get<Listed>(`${X}/project/list`, { code: 'QJ-BRIDGE' })).body.data.records[0].id;
    const link = (await api.post<{ secret: string }>(`${X}/displaylink/submit`, { name: 'CSP 大屏', projectIds: projectId, layout: 'values', rotateSeconds: 30 })).body.data;
    const wall = await c.browser.context.newPage();
    try {
      await wall.goto(`/wall#${link.secret}`);
      await wall.locator('.vg-wall-value').first().waitFor();
    } finally {
      await wall.close();
    }
    expect(c.browser.violations).toEqual([]);
  });

  it('reports a violation when the page breaks the policy (the check above can fail)', async () => {
    await c.page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__inline = 1';
      document.head.append(script);
    });
    await expect.poll(() => c.browser.violations.length).toBeGreaterThan(0);
    expect(c.browser.violations.join('\n')).toContain('script-src');
    expect(await c.page.evaluate(() => (window as unknown as { __inline?: number }).__inline)).toBeUndefined();
    // Seen: the suite's console would report it again when it stops.
    c.browser.violations.length = 0;
  });
});
