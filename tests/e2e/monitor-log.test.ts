import { describe, expect, it } from 'vitest';
import { consoleSuite, openMenu } from './support/console';
import { dialog, rowAction } from './support/crud';

describe('log pages (read only)', () => {
  const c = consoleSuite();


  it('lists an API call made earlier, finds it by request URI and shows its detail', async () => {
    await c.api.post('/api/blade-system/param/submit', { paramName: '日志参数', paramKey: 'log.marker.key', paramValue: 'v' });
    const { page } = c;
    await openMenu(c.page, '接口日志', '/monitor/log/api');
    expect(await page.locator('.vg-add').count()).toBe(0);
    expect(await page.locator('.vg-batch-delete').count()).toBe(0);
    await page.locator('#search-requestUri').fill('/blade-system/param/submit');
    await page.locator('#search-method').fill('POST');
    // Log entries are written in batches: search until it is there, and the list is the search's (not the page's
    // first list, which holds it too).
    const cells = (uri: string) => page.locator('.bp6-table-cell').filter({ hasText: uri }).count();
    await expect
      .poll(async () => {
        await page.locator('.vg-search').click();
        return [(await cells('/blade-system/param/submit')) > 0, await cells('/blade-system/menu')];
      })
      .toEqual([true, 0]);

    await (await rowAction(page, '/blade-system/param/submit', 'detail')).click();
    const params = dialog(page).locator('pre#field-params');
    await expect.poll(() => params.innerText()).toContain('log.marker.key');
    expect(await page.locator('#field-method').inputValue()).toBe('POST');
    expect(await page.locator('#field-type').inputValue()).toBe('200');
    expect(await dialog(page).getByRole('button', { name: '保存' }).count()).toBe(0);
    await dialog(page).getByRole('button', { name: '关闭' }).click();
  });

  it('shows an error log with its stack trace preformatted', async () => {
    await c.api.post('/api/blade-log/error/upload', [{ type: 'TypeError', url: '/e2e/page', message: 'boom in e2e', stack: 'TypeError: boom\n    at one (a.js:1)\n    at two (b.js:2)' }]);
    const { page } = c;
    await openMenu(c.page, '错误日志', '/monitor/log/error');
    await page.locator('.bp6-table-cell').filter({ hasText: 'boom in e2e' }).first().waitFor();
    await (await rowAction(page, 'boom in e2e', 'detail')).click();
    const stack = dialog(page).locator('pre#field-stackTrace');
    await expect.poll(() => stack.innerText()).toContain('at two (b.js:2)');
    expect((await stack.innerText()).split('\n')).toHaveLength(3);
    await dialog(page).getByRole('button', { name: '关闭' }).click();
  });

  it('shows an SMS send in the usual log', async () => {
    await c.api.post('/api/blade-resource/sms/submit', { category: 2, smsCode: 'log-only', templateId: 'TPL_LOG' });
    const sent = await c.api.post('/api/blade-resource/sms/endpoint/send-message', { code: 'log-only', phones: '13800138000', params: '{"n":1}' });
    expect(sent.body).toMatchObject({ success: true });
    const { page } = c;
    await openMenu(c.page, '通用日志', '/monitor/log/usual');
    await expect
      .poll(async () => {
        await page.locator('.vg-crud-toolbar [title="刷新"]').click();
        return page.locator('.bp6-table-cell').filter({ hasText: 'sms' }).count();
      })
      .toBeGreaterThan(0);
    await (await rowAction(page, 'sms', 'detail')).click();
    await expect.poll(() => dialog(page).locator('pre#field-logData').innerText()).toContain('TPL_LOG');
    await dialog(page).getByRole('button', { name: '关闭' }).click();
  });
});
