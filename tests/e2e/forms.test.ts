import { readFile } from 'node:fs/promises';
import type { Locator, Page as BrowserPage } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, signedIn } from '../support/client';
import { consoleSuite } from './support/console';
import { confirmYes, dialog, rowIndexOf } from './support/crud';

/** The demo tenant (server/db/seed/monitoring.ts), whose administrator holds every button of the monitoring menus. */
const DEMO = '100001';

interface Page<T> {
  records: T[];
}
type Row = Record<string, unknown> & { id: string };

describe('forms, project removal, thresholds and the point import (tenant 100001)', () => {
  const c = consoleSuite({ tenantId: DEMO });
  let platform: ApiClient;
  const X = '/api/wit-xinde';
  const list = async (path: string, query: Record<string, string> = {}) => (await c.api.get<Page<Row>>(`${X}/${path}/list`, { size: 100, ...query })).body.data.records;
  const submit = async (path: string, body: Record<string, unknown>) => {
    const reply = await c.api.post<Row>(`${X}/${path}/submit`, body);
    expect(reply.body.msg, `${path}/submit`).toMatch(/成功|success/i);
    return reply.body.data;
  };
  const field = (name: string) => c.page.locator('.bp6-form-group').filter({ has: c.page.locator(`#field-${name}`) });

  /** Clicks a row's action; the table renders only the columns in view, the actions are the last. */
  async function clickAction(scope: BrowserPage | Locator, text: string, action: string) {
    const index = await rowIndexOf(scope, text);
    await scope.locator('.bp6-table-quadrant-main .bp6-table-quadrant-scroll-container').first().evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await scope.locator(`.bp6-table-cell-row-${index} .vg-action-${action}`).first().click();
  }

  /** Picks a tree select's node by its title, opening the nodes titled `path` on the way. */
  async function pick(name: string, title: string, path: string[] = []) {
    const { page } = c;
    await page.locator(`#field-${name}`).click();
    const tree = page.locator(`[data-tree-select="field-${name}"]`);
    for (const step of path) await tree.locator('.bp6-tree-node-content').filter({ hasText: step }).first().locator('.bp6-tree-node-caret').click();
    await tree.locator('.bp6-tree-node-content').filter({ hasText: title }).last().click();
    await page.keyboard.press('Escape');
  }

  async function open(path: string) {
    await c.page.goto(path);
    await c.page.locator('.vg-add').waitFor();
  }

  beforeAll(async () => {
    platform = await signedIn(c.server.url, 'admin', 'admin', '000000');
    for (const region of [{ code: '33', parentCode: '00', name: '浙江省' }, { code: '3301', parentCode: '33', name: '杭州市' }]) {
      expect((await platform.post('/api/blade-system/region/submit', region)).body.success).toBe(true);
    }
  });

  it('project form: dates typed as yyyy-MM-dd and shown without a time, the region picked by name and saved as its code', async () => {
    const { page } = c;
    await open('/xinde/project');
    await page.locator('.vg-add').click();
    await page.locator('#field-name').fill('表单项目');
    await page.locator('#field-code').fill('E2E-FORM');
    expect(await page.locator('#field-startDate').getAttribute('placeholder')).toBe('yyyy-MM-dd');
    await page.locator('#field-startDate').fill('2026/03/01');
    await page.locator('#field-startDate').press('Tab');
    await field('startDate').getByText('日期格式应为 yyyy-MM-dd').waitFor();
    expect(await field('startDate').locator('.bp6-intent-danger').count()).toBeGreaterThan(0);
    await page.locator('#field-startDate').fill('2026-03-01');
    await page.locator('#field-startDate').press('Tab');
    await expect.poll(() => field('startDate').getByText('日期格式应为').count()).toBe(0);
    await pick('regionCode', '杭州市', ['浙江省']);
    await expect.poll(() => page.locator('#field-regionCode').innerText()).toBe('杭州市');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    const [saved] = await list('project', { code: 'E2E-FORM' });
    expect(saved).toMatchObject({ regionCode: '3301', startDate: '2026-03-01 00:00:00' });

    // The table shows the date alone; the form opened again names the stored region.
    const row = page.locator(`.bp6-table-cell-row-${await rowIndexOf(page, 'E2E-FORM')}`);
    await row.filter({ hasText: '2026-03-01' }).first().waitFor();
    expect((await row.allInnerTexts()).join(' ')).not.toContain('00:00:00');
    await clickAction(page, 'E2E-FORM', 'edit');
    await expect.poll(() => page.locator('#field-regionCode').innerText()).toBe('杭州市');
    expect(await page.locator('#field-startDate').inputValue()).toBe('2026-03-01');
    await dialog(page).getByRole('button', { name: '取消' }).click();
  });

  it('project removal says what goes with it and where it is restored from; the recycle bin restores it', async () => {
    const { page } = c;
    const project = await submit('project', { name: '待删项目', code: 'E2E-GONE' });
    const gateway = await submit('gateway', { code: 'E2E-GONE-GW', name: '待删网关', projectId: project.id });
    for (const n of [1, 2, 3]) {
      const device = await submit('device', { code: `E2E-GONE-${n}`, name: `待删设备${n}`, projectId: project.id, gatewayId: gateway.id });
      await submit('devicepoint', { deviceId: device.id, pointKey: 'crack', name: '裂缝' });
    }
    await submit('monitorpoint', { name: '待删监测点', code: 'E2E-GONE-MP', projectId: project.id });
    await open('/xinde/project');
    await clickAction(page, 'E2E-GONE', 'delete');
    const alert = page.locator('.bp6-alert').filter({ hasText: '确定将选择数据删除?' });
    await alert.locator('.vg-remove-notice').waitFor();
    const notice = await alert.locator('.vg-remove-notice').innerText();
    for (const part of ['设备 3 台', '网关 1 个', '设备点位 3 个', '监测点 1 个', '回收站']) expect(notice).toContain(part);
    await confirmYes(page);
    await page.getByText('删除成功').last().waitFor();
    expect(await list('device', { projectId: project.id })).toHaveLength(0);

    await page.locator('.vg-project-recycle-open').click();
    await page.locator('.vg-recycle-E2E-GONE .vg-recycle-restore').click();
    await confirmYes(page, '确定恢复项目「待删项目」?');
    await page.getByText('操作成功!').last().waitFor();
    await expect.poll(async () => (await list('device', { projectId: project.id })).length).toBe(3);
    await page.locator('.vg-project-recycle').getByRole('button', { name: '关闭' }).click();
    await page.locator('.bp6-table-cell').filter({ hasText: 'E2E-GONE' }).first().waitFor();
  });

  it('threshold form: fields of the target type, required ones marked and checked at the field, the device offering its points', async () => {
    const { page } = c;
    const [project] = await list('project', { code: 'QJ-BRIDGE' });
    const device = await submit('device', { code: 'E2E-TH-DEV', name: '阈值设备', projectId: project.id });
    await submit('devicepoint', { deviceId: device.id, pointKey: 'e2e_tilt', name: 'E2E倾角' });
    await open('/xinde/devicethreshold');
    await page.locator('.vg-add').click();
    expect(await page.locator('#field-targetType').inputValue()).toBe('1');
    for (const name of ['deviceId', 'pointKey', 'targetType']) expect(await field(name).locator('.bp6-label').innerText()).toContain('*');
    expect(await page.locator('#field-monitorPointId').count()).toBe(0);
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await field('deviceId').getByText('请选择设备').waitFor();
    await field('pointKey').getByText('请选择点位').waitFor();
    expect(await page.locator('.vg-field-invalid').count()).toBe(2);

    // Another target type shows its own fields only.
    await page.locator('#field-targetType').selectOption('2');
    await page.locator('#field-monitorPointId').waitFor();
    expect(await page.locator('#field-deviceId').count()).toBe(0);
    await page.locator('#field-targetType').selectOption('3');
    await page.locator('#field-factorsItemId').waitFor();
    await page.locator('#field-projectId').waitFor();
    await page.locator('#field-targetType').selectOption('1');

    await pick('deviceId', '阈值设备');
    await pick('pointKey', 'E2E倾角 (e2e_tilt)');
    await page.locator('#field-level1Upper').fill('5');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    const [saved] = await list('devicethreshold', { deviceId: device.id });
    expect(saved).toMatchObject({ targetType: 1, pointKey: 'e2e_tilt' });
  });

  it('monitor points list their thresholds', async () => {
    const { page } = c;
    const [project] = await list('project', { code: 'QJ-BRIDGE' });
    const point = await submit('monitorpoint', { name: 'E2E阈值监测点', code: 'E2E-MP-TH', projectId: project.id });
    await submit('devicethreshold', { targetType: 2, monitorPointId: point.id, name: 'E2E监测点阈值', level1Upper: 9 });
    await open('/xinde/monitorpoint');
    await clickAction(page, 'E2E-MP-TH', 'thresholds');
    const thresholds = page.locator('.vg-child-thresholds');
    await thresholds.locator('.bp6-table-cell').filter({ hasText: 'E2E监测点阈值' }).first().waitFor();
    await thresholds.locator('.bp6-dialog-close-button').click();
  });

  it('point import: a template to download, a missing column named in Chinese in the dialog, row errors kept as a list', async () => {
    const { page } = c;
    await open('/xinde/devicepoint');
    await page.locator('.vg-toolbar-upload').click();
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('.vg-upload-template').click()]);
    expect(download.suggestedFilename()).toBe('设备点位导入模板.csv');
    const template = await readFile(await download.path(), 'utf8');
    expect(template.replace(/^\uFEFF/, '').trim()).toBe('设备编号,点位标识,点位名称,单位,因素项编号,精度,通道,排序,备注');

    await page.locator('#point-sheet').setInputFiles({ name: 'points.csv', mimeType: 'text/csv', buffer: Buffer.from('设备编号,名称\nQJ-RAIN-01,x\n') });
    await page.locator('.vg-upload-submit').click();
    await page.locator('.vg-upload-problem').getByText('缺少列: 点位标识, 点位名称').waitFor();

    const bad = ['设备编号,点位标识,点位名称', 'NO-SUCH,e2e_a,甲', 'QJ-RAIN-01,9bad,乙', ''].join('\n');
    await page.locator('#point-sheet').setInputFiles({ name: 'points.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.locator('.vg-upload-submit').click();
    const errors = page.locator('.vg-upload-errors');
    await errors.getByText('点位表有 2 行错误,未导入任何数据。').waitFor();
    // Still there after a toast would have gone: the rows are a list in the dialog.
    await page.waitForTimeout(3500);
    expect(await errors.locator('tbody tr').allInnerTexts()).toEqual([expect.stringMatching(/^2\s+设备编号 NO-SUCH 不存在/), expect.stringMatching(/^3\s+点位标识: /)]);
    await dialog(page).getByRole('button', { name: '关闭' }).click();
  });
});
