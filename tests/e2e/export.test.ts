import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { consoleSuite, openMenu } from './support/console';

/** The demo tenant (server/db/seed/monitoring.ts): devices QJ-… of project 钱塘江大桥健康监测. */
const DEMO = '100001';

interface Page<T> {
  records: T[];
  total: number;
}
type Row = Record<string, unknown> & { id: string };

/** The first sheet's rows, each as its cells' values (holes for empty cells made undefined). */
async function sheetRows(path: string): Promise<unknown[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(path);
  const rows: unknown[][] = [];
  workbook.worksheets[0].eachRow((row) => rows.push(Array.from((row.values as unknown[]).slice(1), (v) => v ?? undefined)));
  return rows;
}

describe('list export and upload progress (tenant 100001)', () => {
  const c = consoleSuite({ tenantId: DEMO });
  /** Chromium's network throttling, so that progress can be seen on a local server. */
  const throttle = async (bytesPerSecond: number) => {
    const cdp = await c.page.context().newCDPSession(c.page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: bytesPerSecond, uploadThroughput: bytesPerSecond });
    return () => cdp.detach();
  };

  it('导出 downloads the filtered device list as xlsx, with the visible columns, while showing its progress', async () => {
    const { page } = c;
    await openMenu(page, '设备列表', '/xinde/device');
    await page.locator('.bp6-table-cell').filter({ hasText: 'QJ-TILT-01' }).first().waitFor();
    await page.fill('#search-code', 'QJ-TILT');
    await page.locator('.vg-search').click();
    await expect.poll(() => page.locator('.vg-total').innerText()).toBe('共 2 条');

    const release = await throttle(3000);
    const download = page.waitForEvent('download');
    await page.locator('.vg-export').click();
    await page.locator('.vg-export-progress').filter({ hasText: '共 2 条,已接收' }).waitFor();
    expect(await page.locator('.vg-export-progress .bp6-progress-bar').count()).toBe(1);
    const file = await download;
    await release();
    await page.getByText('导出成功').last().waitFor();
    await page.locator('.vg-export').waitFor();
    expect(file.suggestedFilename()).toMatch(/^设备列表-\d{8}-\d{6}\.xlsx$/);

    const [header, ...rows] = await sheetRows(await file.path());
    expect(header).toEqual(['设备编号', '设备名称', '设备型号', '设备类型', '所属项目', '所属网关', '设备分组', '在线状态', '最后上报', '最新值']);
    const listed = (await c.api.get<Page<Row>>('/api/wit-xinde/device/list', { code: 'QJ-TILT', size: 100 })).body.data.records;
    expect(rows.map((r) => r[0])).toEqual(listed.map((d) => d.code));
    expect(rows.map((r) => [r[1], r[4], r[7]])).toEqual(listed.map((d) => [d.name, '钱塘江大桥健康监测', d.online === 1 ? '在线' : '离线']));
  });

  it('cancels an export on 取消', async () => {
    const { page } = c;
    const release = await throttle(500);
    await page.locator('.vg-export').click();
    await page.locator('.vg-export-progress').filter({ hasText: '已接收' }).waitFor();
    await page.locator('.vg-export-cancel').click();
    await page.locator('.vg-export').waitFor();
    await release();
    expect(await page.getByText('导出成功').count()).toBe(0);
  });

  it('shows an attachment upload’s progress until the file is stored', async () => {
    const { page } = c;
    await openMenu(page, '附件管理', '/resource/attach');
    await page.locator('.vg-toolbar-upload').waitFor();
    const release = await throttle(256 * 1024);
    const chooser = page.waitForEvent('filechooser');
    await page.locator('.vg-toolbar-upload').click();
    await (await chooser).setFiles({ name: 'survey.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(900 * 1024, 7) });
    const toast = page.locator('.vg-progress-toast');
    await toast.filter({ hasText: /正在上传 survey\.bin:\d+(\.\d+)? KB \/ 900\.00 KB/ }).waitFor();
    expect(await toast.locator('.bp6-progress-bar').count()).toBe(1);
    await page.getByText('上传成功').last().waitFor();
    await release();
    await expect.poll(() => toast.count()).toBe(0);
    await page.locator('.bp6-table-cell').filter({ hasText: 'survey.bin' }).first().waitFor();
  });
});
