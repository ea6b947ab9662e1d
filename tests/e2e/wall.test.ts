import mqtt, { type MqttClient } from 'mqtt';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime } from '../../resources/datetime';
import { type ApiClient, signedIn } from '../support/client';
import { type ConsoleUnderTest, openConsole, openMenu, signIn } from './support/console';
import { confirmYes, dialog, rowAction } from './support/crud';

/** Demo tenant, its bridge project and a crack meter (docs/data-model.md). */
const DEMO = '100001';
const PROJECT = '钱塘江大桥健康监测';
const DEVICE = 'QJ-CRACK-01';
const DEVICE_PASSWORD = 'Vigil#Device2026';
const X = '/api/wit-xinde';

interface LinkRow {
  id: string;
  name: string;
  trends: string | null;
  state: string;
  lastSeenTime: string | null;
}

/** A PNG drawn in the page (a plain 800×400 diagram), as an upload's bytes. */
async function diagramPng(page: Page): Promise<Buffer> {
  const data = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 800;
    canvas.height = 400;
    const g = canvas.getContext('2d') as CanvasRenderingContext2D;
    g.fillStyle = '#d8e1e8';
    g.fillRect(0, 0, 800, 400);
    g.fillStyle = '#394b59';
    g.fillRect(40, 180, 720, 30);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(data.split(',')[1], 'base64');
}

/** Drags an element with the mouse and drops it at (x, y) of the page. */
async function dragTo(page: Page, selector: string, x: number, y: number): Promise<void> {
  const box = await page.locator(selector).first().boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(x, y, { steps: 8 });
  await page.mouse.up();
}

describe('the wall screen and its display links', () => {
  let c: ConsoleUnderTest;
  let api: ApiClient;
  let device: MqttClient | undefined;
  let wall: Page;
  let deviceId: string;
  let projectId: string;
  let crackPoint: string;

  const connectDevice = async () => {
    await device?.endAsync(true);
    device = await mqtt.connectAsync(`mqtt://127.0.0.1:${c.server.app.broker?.port}`, { username: DEVICE, password: DEVICE_PASSWORD, clientId: DEVICE, protocolVersion: 4, reconnectPeriod: 0 });
    return device;
  };
  const publish = async (crack: number) => {
    const client = device ?? (await connectDevice());
    await client.publishAsync(`vigil/${DEMO}/device/${DEVICE}/data`, JSON.stringify({ ts: Date.now(), values: { crack, temperature: 20 } }), { qos: 1 });
  };
  const links = async () => (await api.get<{ records: LinkRow[] }>(`${X}/displaylink/list`, { size: 100 })).body.data.records;
  const crackValue = (page: Page) => page.locator(`.vg-wall-value[data-channel="${deviceId}:crack"] .vg-wall-value-number b`);

  beforeAll(async () => {
    c = await openConsole();
    api = await signedIn(c.server.url, 'admin', 'admin', DEMO);
    const db = c.server.app.platform.db;
    deviceId = String((await db.selectFrom('wit_device').select('id').where('code', '=', DEVICE).executeTakeFirstOrThrow()).id);
    projectId = String((await db.selectFrom('wit_project').select('id').where('code', '=', 'QJ-BRIDGE').executeTakeFirstOrThrow()).id);
    crackPoint = String((await db.selectFrom('wit_monitor_point').select('id').where('code', '=', 'MP-CRACK-01-CRACK').executeTakeFirstOrThrow()).id);
    // A red alarm (level 1) above 5 mm, blue above 1 mm.
    expect((await api.post(`${X}/devicethreshold/submit`, { targetType: 1, deviceId, pointKey: 'crack', level1Upper: 5, level4Upper: 1 })).body.success).toBe(true);
    await signIn(c.page, DEMO);
  });
  afterAll(async () => {
    await device?.endAsync(true);
    await c?.stop();
  });

  it("places a project's monitor point on its uploaded structure image (布局)", async () => {
    const { page } = c;
    await openMenu(page, '监测大屏', '/xinde/screen');
    await page.locator('.vg-screen-layout-open').click();
    await page.locator('#layout-project').selectOption({ label: PROJECT });
    await page.locator('.vg-layout-item', { hasText: '主跨跨中底板裂缝宽度' }).waitFor();
    await page.locator('.vg-layout-upload').setInputFiles({ name: 'bridge.png', mimeType: 'image/png', buffer: await diagramPng(page) });
    const image = page.locator('.vg-layout-image img');
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(800);
    const box = await image.boundingBox();
    if (!box) throw new Error('the image is not shown');
    // The crack meter sits at the middle of the span.
    await dragTo(page, `.vg-layout-item[data-point="${crackPoint}"]`, box.x + box.width * 0.5, box.y + box.height * 0.25);
    await page.locator(`.vg-layout-marker[data-point="${crackPoint}"]`).waitFor();
    await page.locator('.vg-layout-save').click();
    await page.getByText('保存成功').last().waitFor();
    const stored = await c.server.app.platform.db.selectFrom('wit_monitor_point').select(['screenX', 'screenY']).where('id', '=', crackPoint).executeTakeFirstOrThrow();
    expect(Number(stored.screenX)).toBeCloseTo(0.5, 1);
    expect(Number(stored.screenY)).toBeCloseTo(0.25, 1);
    const project = await c.server.app.platform.db.selectFrom('wit_project').select('screenImage').where('id', '=', projectId).executeTakeFirstOrThrow();
    expect(project.screenImage).toMatch(/^http/);
    await dialog(page).getByRole('button', { name: '关闭' }).click();
    expect(c.browser.errors).toEqual([]);
  });

  it('makes a link with its charted channel and shows its secret once, as a full address to open', async () => {
    const { page } = c;
    await page.locator('.vg-add').click();
    await page.locator('#field-name').fill('E2E 控制室');
    await page.locator('#field-projectIds').click();
    await page.locator('.vg-tree-select').getByText(PROJECT).click();
    await page.keyboard.press('Escape');
    await page.locator('#field-layout').selectOption('values');
    await page.locator('#field-trends').click();
    const channels = page.locator('.vg-tree-select');
    // Projects and devices are headings; the channels are the choices.
    const caret = (title: string) => channels.locator('.bp6-tree-node-content').filter({ hasText: title }).locator('.bp6-tree-node-caret');
    await caret(PROJECT).click();
    await caret('跨中底板裂缝计').click();
    await channels.getByText('裂缝宽度 (crack)').click();
    await page.keyboard.press('Escape');
    await dialog(page).getByRole('button', { name: '保存' }).click();

    const secret = page.locator('.vg-link-secret');
    await secret.waitFor();
    const address = await secret.locator('.vg-link-address input').inputValue();
    expect(address).toMatch(new RegExp(`^${c.server.url}/wall#[A-Za-z0-9_-]{43}$`));
    const made = (await links()).find((l) => l.name === 'E2E 控制室');
    expect(made).toMatchObject({ state: 'active', trends: JSON.stringify({ [projectId]: [`${deviceId}:crack`] }) });

    [wall] = await Promise.all([c.browser.context.waitForEvent('page'), secret.locator('.vg-link-open').click()]);
    await wall.waitForURL(`**/wall#*`);
    await secret.getByRole('button', { name: '关闭' }).click();
    await page.locator('.vg-link-state[data-state="active"]').first().waitFor();
  });

  it('paints the project live: the point on its image, a reading over MQTT, a red alarm with a flash and a beep', async () => {
    wall.setDefaultTimeout(20_000);
    wall.on('pageerror', (error) => c.browser.errors.push(error.message));
    await wall.locator('.vg-wall-link.is-live').waitFor();
    expect(await wall.locator('[data-project]').innerText()).toBe(PROJECT);
    // Never a sign-in form, nor the console's shell.
    expect(await wall.locator('#username, .vg-sidebar').count()).toBe(0);
    await wall.locator(`.vg-wall-image .vg-wall-marker[data-point="${crackPoint}"]`).waitFor();
    await wall.locator('.vg-wall-trend[data-series="1"] canvas').first().waitFor();
    // The snapshot was decoded by its worker (a worker that fails to start falls back to the page, silently slower).
    expect(wall.workers().map((w) => w.url()).some((url) => url.includes('snapshotWorker'))).toBe(true);
    // Counts the beep's oscillators (Web Audio makes no sound a test could hear); a click is the gesture that unlocks it.
    await wall.evaluate(() => {
      const w = window as unknown as { beeps: number };
      w.beeps = 0;
      const create = AudioContext.prototype.createOscillator;
      AudioContext.prototype.createOscillator = function (this: AudioContext) {
        w.beeps += 1;
        return create.call(this);
      };
    });
    await wall.mouse.click(5, 300);
    await wall.locator('.vg-wall-sound').waitFor({ state: 'detached' });

    // The trend chart is drawn by a worker on the panel's canvas (data-drawn counts its paints): a reading of its
    // channel is painted.
    const trend = wall.locator('.vg-wall-trend[data-series="1"]');
    await wall.locator('.vg-wall-trend[data-drawn]').waitFor();
    const paints = Number(await trend.getAttribute('data-drawn'));
    const drawn = await trend.screenshot();
    await publish(0.777);
    await expect.poll(() => crackValue(wall).innerText()).toBe('0.78');
    await expect.poll(async () => Number(await trend.getAttribute('data-drawn'))).toBeGreaterThan(paints);
    await expect.poll(async () => (await trend.screenshot()).equals(drawn)).toBe(false);
    expect(await wall.locator(`.vg-wall-value[data-channel="${deviceId}:crack"] .vg-wall-age`).innerText()).toMatch(/^\d+ 秒前$/);
    expect(await wall.locator('.vg-wall-alarm').count()).toBe(0);

    await publish(9.5);
    const alarm = wall.locator('.vg-wall-alarm.is-level-1');
    await alarm.waitFor();
    expect(await alarm.innerText()).toContain('跨中底板裂缝计');
    await wall.locator('.vg-wall-flash').waitFor({ state: 'attached' });
    expect(await wall.locator('.vg-wall-stats [data-level="1"] b').innerText()).toBe('1');
    await expect.poll(() => wall.evaluate(() => (window as unknown as { beeps: number }).beeps)).toBeGreaterThan(0);
    await expect.poll(() => crackValue(wall).innerText()).toBe('9.50');
    // The change from the reading before, signed.
    expect(await wall.locator(`.vg-wall-value[data-channel="${deviceId}:crack"] .vg-wall-change`).innerText()).toContain('+8.72');
    // The link's last use is recorded for the manager.
    await expect.poll(async () => (await links()).find((l) => l.name === 'E2E 控制室')?.lastSeenTime).toBeTruthy();
    expect(c.browser.errors).toEqual([]);
  });

  it('goes live over long-polling where WebSockets are blocked', async () => {
    const polled = await c.browser.context.newPage();
    try {
      let refused = 0;
      await polled.routeWebSocket(/socket\.io/, (ws) => {
        refused += 1;
        ws.close();
      });
      await polled.goto(new URL(wall.url()).pathname + new URL(wall.url()).hash);
      await polled.locator('.vg-wall-link.is-live').waitFor({ timeout: 20_000 });
      // The upgrade to a WebSocket was tried and refused: the screen is live over polling.
      await expect.poll(() => refused).toBeGreaterThan(0);
      await publish(1.234);
      await expect.poll(() => crackValue(polled).innerText(), { timeout: 15_000 }).toBe('1.23');
    } finally {
      await polled.close();
    }
  });

  it('says so, full screen and without a sign-in form, when a link is unknown, incomplete or expires', async () => {
    const other = await c.browser.context.newPage();
    try {
      await other.goto(`/wall#${'x'.repeat(43)}`);
      await other.locator('.vg-wall-message.is-invalid', { hasText: '大屏链接无效' }).waitFor();
      await other.goto('/wall');
      await other.locator('.vg-wall-message.is-missing', { hasText: '大屏链接不完整' }).waitFor();
      // A link that ends in a few seconds: open, it is closed at its expiry (or refused, if it loaded after).
      const expiresAt = formatDateTime(new Date(Date.now() + 4_000));
      const made = await api.post<{ secret: string }>(`${X}/displaylink/submit`, { name: 'E2E 短期', projectIds: projectId, expiresAt });
      await other.goto(`/wall#${made.body.data.secret}`);
      await other.locator('.vg-wall-message.is-expired', { hasText: '此大屏链接已过期' }).waitFor({ timeout: 20_000 });
      expect(await other.locator('#username, .vg-sidebar').count()).toBe(0);
      expect(new URL(other.url()).pathname).toBe('/wall');
    } finally {
      await other.close();
    }
  });

  it('marks its data stale while the server restarts and recovers by itself, without a reload', async () => {
    await wall.evaluate(() => {
      const w = window as unknown as { sameDocument: boolean; sawStale: boolean };
      w.sameDocument = true;
      w.sawStale = false;
      new MutationObserver(() => {
        if (document.querySelector('.vg-wall-link.is-stale')) w.sawStale = true;
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
    await c.restartServer();
    await expect.poll(() => wall.evaluate(() => (window as unknown as { sawStale: boolean }).sawStale), { timeout: 20_000 }).toBe(true);
    await wall.locator('.vg-wall-link.is-live').waitFor({ timeout: 30_000 });
    expect(await wall.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    // The device reconnects to the restarted broker; its reading reaches the screen through the new server.
    await connectDevice();
    await publish(2.468);
    await expect.poll(() => crackValue(wall).innerText(), { timeout: 15_000 }).toBe('2.47');
  });

  it('closes the screen with the revoked message once the link is revoked in the manager', async () => {
    const { page } = c;
    api = await signedIn(c.server.url, 'admin', 'admin', DEMO);
    await page.reload();
    await (await rowAction(page, 'E2E 控制室', 'revoke')).click();
    await confirmYes(page, '撤销后该链接永久失效');
    await page.locator('.vg-link-state[data-state="revoked"]').first().waitFor();
    const message = wall.locator('.vg-wall-message.is-revoked');
    await message.waitFor();
    expect(await message.innerText()).toContain('此大屏链接已被撤销');
    expect(await wall.locator('.vg-wall-screen').count()).toBe(0);
    expect(new URL(wall.url()).pathname).toBe('/wall');
    expect(c.browser.errors).toEqual([]);
  });
});
