import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, signedIn } from '../support/client';
import { type ConsoleUnderTest, openConsole, openMenu } from './support/console';
import { confirmYes, dialog, rowAction, rowIndexOf } from './support/crud';

interface Config {
  id: string;
  ossCode?: string;
  smsCode?: string;
  status: number;
}

const rowText = async (c: ConsoleUnderTest, text: string) => {
  const index = await rowIndexOf(c.page, text);
  return (await c.page.locator(`.bp6-table-cell-row-${index}`).allInnerTexts()).join('|');
};

describe('resource pages (OSS, SMS, attachments)', () => {
  let c: ConsoleUnderTest;
  let api: ApiClient;
  /** A local SMS gateway: records what it receives and answers `status`. */
  let gateway: Server;
  let gatewayUrl = '';
  const received: Array<Record<string, unknown>> = [];
  let gatewayStatus = 200;

  beforeAll(async () => {
    gateway = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(JSON.parse(body) as Record<string, unknown>);
        response.writeHead(gatewayStatus, { 'content-type': 'application/json' }).end(gatewayStatus === 200 ? '{"ok":true}' : '{"error":"quota"}');
      });
    });
    await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
    gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/send`;
    c = await openConsole();
    api = await signedIn(c.server.url);
    await c.login();
  });
  afterAll(async () => {
    await c?.stop();
    await new Promise((resolve) => gateway?.close(resolve));
  });

  it('adds OSS configs and enables one at a time', async () => {
    const { page } = c;
    await openMenu(c.page, '对象存储', '/resource/oss');
    await page.locator('.vg-add').click();
    await page.locator('#field-category').selectOption('1');
    await page.locator('#field-ossCode').fill('local-a');
    await page.locator('#field-remark').fill('本地一');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    await api.post('/api/blade-resource/oss/submit', { category: 1, ossCode: 'local-b' });
    await page.locator('.vg-crud-toolbar [title="刷新"]').click();
    await page.locator('.bp6-table-cell').filter({ hasText: 'local-b' }).first().waitFor();
    expect(await rowText(c, 'local-a')).toContain('停用');
    expect(await rowText(c, 'local-a')).toContain('本地存储');

    const enabled = async () =>
      (await api.get<{ records: Config[] }>('/api/blade-resource/oss/list', { size: 100 })).body.data.records.filter((r) => r.status === 2).map((r) => r.ossCode);
    await (await rowAction(page, 'local-a', 'enable')).click();
    await page.getByText('操作成功!').last().waitFor();
    await expect.poll(() => rowText(c, 'local-a')).toContain('启用');
    expect(await enabled()).toEqual(['local-a']);

    await (await rowAction(page, 'local-b', 'enable')).click();
    await expect.poll(() => rowText(c, 'local-b')).toContain('启用');
    expect(await rowText(c, 'local-a')).toContain('停用');
    expect(await enabled()).toEqual(['local-b']);
  });

  it('sends a test SMS through an HTTP gateway config', async () => {
    const { page } = c;
    await openMenu(c.page, '短信配置', '/resource/sms');
    await page.locator('.vg-add').click();
    await page.locator('#field-category').selectOption('1');
    await page.locator('#field-smsCode').fill('gateway');
    await page.locator('#field-templateId').fill('TPL_1');
    await page.locator('#field-endpoint').fill(gatewayUrl);
    await page.locator('#field-signName').fill('Vigil');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    await page.locator('.bp6-table-cell').filter({ hasText: 'TPL_1' }).first().waitFor();

    await (await rowAction(page, 'TPL_1', 'send')).click();
    expect(await page.locator('#send-code').inputValue()).toBe('gateway');
    await page.locator('#send-phones').fill('13800138000,13900139000');
    await page.locator('#send-params').fill('{"code":"1234"}');
    await dialog(page).getByRole('button', { name: '发送' }).click();
    await page.getByText('发送成功!').last().waitFor();
    expect(received.at(-1)).toMatchObject({ templateId: 'TPL_1', signName: 'Vigil', phones: ['13800138000', '13900139000'], params: { code: '1234' } });

    // A gateway failure keeps the dialog open with the server's message.
    gatewayStatus = 500;
    await (await rowAction(page, 'TPL_1', 'send')).click();
    await page.locator('#send-phones').fill('13800138000');
    await dialog(page).getByRole('button', { name: '发送' }).click();
    await dialog(page).locator('.vg-sms-failure').filter({ hasText: '短信发送失败' }).waitFor();
    expect(await dialog(page).locator('.vg-sms-failure').innerText()).toContain('500');
    await dialog(page).getByRole('button', { name: '取消' }).click();
    gatewayStatus = 200;
  });

  it('uploads an attachment, downloads it through its link and deletes it', async () => {
    const { page } = c;
    await openMenu(c.page, '附件管理', '/resource/attach');
    const chooser = page.waitForEvent('filechooser');
    await page.locator('.vg-toolbar-upload').click();
    await (await chooser).setFiles({ name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello vigil!') });
    await page.getByText('上传成功').last().waitFor();
    await page.locator('.bp6-table-cell').filter({ hasText: 'hello.txt' }).first().waitFor();
    expect(await rowText(c, 'hello.txt')).toContain('12 B');

    const popup = page.context().waitForEvent('page');
    await (await rowAction(page, 'hello.txt', 'download')).click();
    const opened = await popup;
    await opened.waitForLoadState();
    const link = opened.url();
    expect(link).toContain('/api/blade-resource/oss/endpoint/file/');
    expect(await opened.locator('body').innerText()).toContain('hello vigil!');
    await opened.close();
    expect(await (await fetch(link)).text()).toBe('hello vigil!');

    await (await rowAction(page, 'hello.txt', 'delete')).click();
    await confirmYes(page);
    await page.getByText('删除成功').last().waitFor();
    await expect.poll(() => page.locator('.bp6-table-cell').filter({ hasText: 'hello.txt' }).count()).toBe(0);
    expect((await fetch(link)).status).toBe(404);
  });
});
