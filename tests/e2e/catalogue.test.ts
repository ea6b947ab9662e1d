import type { Locator, Page as BrowserPage } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { consoleSuite } from './support/console';
import { dialog, rowIndexOf } from './support/crud';

/** The demo tenant (server/db/seed/monitoring.ts): project 钱塘江大桥健康监测 and its devices QJ-…. */
const DEMO = '100001';
const PROJECT_CODE = 'QJ-BRIDGE';

interface Page<T> {
  records: T[];
  total: number;
}
type Row = Record<string, unknown> & { id: string };

describe('catalogue, monitoring and data screens (tenant 100001)', () => {
  const c = consoleSuite({ tenantId: DEMO });
  let rain: Row;
  let project: Row;
  const list = async (path: string, query: Record<string, string> = {}) => (await c.api.get<Page<Row>>(`/api/wit-xinde/${path}/list`, { size: 100, ...query })).body.data.records;
  const cell = (scope: BrowserPage | Locator, text: string) => scope.locator('.bp6-table-cell').filter({ hasText: text }).first();

  /** Clicks a row's action; tables are wider than the page and Blueprint renders the visible columns only. */
  async function clickAction(scope: BrowserPage | Locator, text: string, action: string) {
    const index = await rowIndexOf(scope, text);
    await scope.locator('.bp6-table-quadrant-main .bp6-table-quadrant-scroll-container').first().evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await scope.locator(`.bp6-table-cell-row-${index} .vg-action-${action}`).first().click();
  }

  /** Picks a node of a tree select by its title. */
  async function pick(field: string, title: string) {
    await c.page.locator(`#${field}`).click();
    await c.page.locator(`[data-tree-select="${field}"] .bp6-tree-node-content`).filter({ hasText: title }).first().click();
    await c.page.keyboard.press('Escape');
  }

  async function open(path: string) {
    await c.page.goto(path);
    await c.page.locator('.vg-crud-toolbar').first().waitFor();
  }

  /** Searches the list by one text field (the demo lists run over one page). */
  async function search(field: string, value: string) {
    await c.page.locator(`#search-${field}`).fill(value);
    await c.page.locator('.vg-search').click();
  }

  beforeAll(async () => {
    [rain] = await list('device', { code: 'QJ-RAIN-01' });
    [project] = await list('project', { code: PROJECT_CODE });
  });

  it('saves a device model with a formula and shows it', async () => {
    const { page } = c;
    await open('/xinde/devicemodel');
    await page.locator('.vg-add').click();
    await page.locator('#field-name').fill('E2E 型号');
    await page.locator('#field-code').fill('E2E-MODEL');
    await page.locator('#field-formula').fill('(x - x0) * 1000');
    // The formula language is told next to the field.
    await dialog(page).getByText('x0(初始值)', { exact: false }).waitFor();
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    const [model] = await list('devicemodel', { code: 'E2E-MODEL' });
    expect(model).toMatchObject({ name: 'E2E 型号', formula: '(x - x0) * 1000', modelKind: 1, connectionType: 1 });

    await clickAction(page, 'E2E-MODEL', 'view');
    await expect.poll(() => page.locator('#field-formula').inputValue()).toBe('(x - x0) * 1000');
    await dialog(page).getByRole('button', { name: '关闭' }).click();
  });

  it('refuses a point sheet with a bad row (the row error shown, nothing imported), then imports a good one', async () => {
    const { page } = c;
    await open('/xinde/devicepoint');
    await page.locator('.vg-toolbar-upload').click();
    const header = '设备编号,点位标识,点位名称,单位,精度';
    const bad = [header, 'QJ-RAIN-01,e2e_daily,日雨量,mm,1', 'QJ-RAIN-01,9bad,坏点位,mm,1', ''].join('\n');
    await page.locator('#point-sheet').setInputFiles({ name: 'points.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await page.locator('.vg-upload-submit').click();
    const errors = page.locator('.vg-upload-errors');
    await errors.getByText('点位表有 1 行错误,未导入任何数据。').waitFor();
    await errors.locator('td').filter({ hasText: /^3$/ }).waitFor();
    expect(await errors.locator('tbody tr').count()).toBe(1);
    expect(await errors.locator('tbody td').nth(1).innerText()).toMatch(/点位标识/);
    expect(await list('devicepoint', { deviceId: rain.id, pointKey: 'e2e_daily' })).toHaveLength(0);

    const good = [header, 'QJ-RAIN-01,e2e_daily,日雨量,mm,1', 'QJ-RAIN-01,e2e_hourly,时雨量,mm,1', ''].join('\n');
    await page.locator('#point-sheet').setInputFiles({ name: 'points.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    await page.locator('.vg-upload-submit').click();
    await page.locator('.vg-upload-result').getByText('新增 2 个点位').waitFor();
    const points = await list('devicepoint', { deviceId: rain.id });
    expect(points.map((p) => p.pointKey)).toEqual(expect.arrayContaining(['e2e_daily', 'e2e_hourly']));
    await dialog(page).getByRole('button', { name: '关闭' }).click();
    await search('pointKey', 'e2e_hourly');
    await cell(page, '时雨量').waitFor();
  });

  it('binds a demo device to a monitor point', async () => {
    const { page } = c;
    const created = await c.api.post<Row>('/api/wit-xinde/monitorpoint/submit', { projectId: project.id, name: 'E2E 测点', code: 'E2E-MP-01' });
    expect(created.body.success).toBe(true);
    await open('/xinde/monitorpoint');
    await search('code', 'E2E-MP-01');
    await clickAction(page, 'E2E-MP-01', 'bind');
    const bindDialog = page.locator('.vg-child-bind');
    await bindDialog.locator('.vg-add').click();
    await pick('field-deviceId', String(rain.name));
    await page.locator('#field-pointKey').fill('rainfall');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    await cell(bindDialog, 'rainfall').waitFor();
    const [point] = await list('monitorpoint', { code: 'E2E-MP-01' });
    const bindings = await list('pointrelationdevice', { monitorPointId: point.id });
    expect(bindings).toEqual([expect.objectContaining({ deviceId: rain.id, pointKey: 'rainfall' })]);
  });

  it('starts and stops a collection strategy', async () => {
    const { page } = c;
    const created = await c.api.post<Row>('/api/wit-xinde/collectstrategy/submit', { name: 'E2E 采集', projectId: project.id, deviceIds: rain.id, intervalSeconds: 3600, enabled: 0 });
    expect(created.body.success).toBe(true);
    await open('/xinde/collectstrategy');
    await clickAction(page, 'E2E 采集', 'start');
    await page.getByText('策略已启动').last().waitFor();
    await expect.poll(async () => (await list('collectstrategy', { name: 'E2E 采集' }))[0]).toMatchObject({ enabled: 1, running: 1 });

    await clickAction(page, 'E2E 采集', 'stop');
    await page.getByText('策略已停止').last().waitFor();
    await expect.poll(async () => (await list('collectstrategy', { name: 'E2E 采集' }))[0]).toMatchObject({ enabled: 0, running: 0 });
  });

  it('corrects a stored value; the correction appears in the audit list', async () => {
    const { page } = c;
    const time = '2025-06-01 08:00:00';
    const added = await c.api.post<Row>('/api/wit-xinde/devicelog/submit', { deviceId: rain.id, pointKey: 'rainfall', time, value: 1.5 });
    expect(added.body.success).toBe(true);
    await open('/xinde/devicelog');
    await pick('search-deviceId', String(rain.name));
    await page.locator('#search-pointKey').fill('rainfall');
    await page.locator('.vg-search').click();
    await clickAction(page, time, 'correct');
    await expect.poll(() => page.locator('#field-value').inputValue()).toBe('1.5');
    await page.locator('#field-value').fill('2.5');
    await page.locator('#field-reason').fill('E2E 雨量计校准');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('更新成功').last().waitFor();
    const [value] = await list('devicelog', { deviceId: rain.id, pointKey: 'rainfall', startTime: time, endTime: time });
    expect(value).toMatchObject({ value: 2.5, raw: 1.5 });

    await page.locator('.vg-update-log').click();
    const audit = page.locator('.vg-update-log-dialog');
    await cell(audit, 'E2E 雨量计校准').waitFor();
    const [entry] = await list('devicelogupdatelog', { deviceId: rain.id, action: '2' });
    expect(entry).toMatchObject({ pointKey: 'rainfall', oldValue: 1.5, newValue: 2.5, reason: 'E2E 雨量计校准' });
  });

  it('charts a data comparison of the corrected channel', async () => {
    const { page } = c;
    const items = [{ deviceId: rain.id, pointKey: 'rainfall', name: 'E2E 雨量' }];
    const created = await c.api.post<Row>('/api/wit-xinde/datacomparison/submit', { projectId: project.id, name: 'E2E 对比', batchNumber: 'E2E-01', startTime: '2025-06-01 00:00:00', endTime: '2025-06-02 00:00:00', items });
    expect(created.body.success).toBe(true);
    await open('/xinde/datacomparison');
    await cell(page, 'E2E 对比').waitFor();
    await clickAction(page, 'E2E 对比', 'chart');
    const chart = page.locator('.vg-comparison-chart');
    await chart.locator('canvas').first().waitFor();
    expect(await chart.getByText('该时间段内没有数据').count()).toBe(0);
    await chart.locator('.bp6-dialog-close-button').click();

    // The form shows the items as picked channels and keeps their names on save.
    await clickAction(page, 'E2E 对比', 'edit');
    await expect.poll(() => page.locator('#field-itemKeys').innerText()).toContain('(rainfall)');
    await page.locator('#field-remark').fill('E2E 备注');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('更新成功').last().waitFor();
    const [saved] = await list('datacomparison', { name: 'E2E 对比' });
    expect(saved).toMatchObject({ remark: 'E2E 备注', items: [expect.objectContaining({ deviceId: rain.id, pointKey: 'rainfall', name: 'E2E 雨量' })] });
  });
});
