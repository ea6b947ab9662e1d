import mqtt from 'mqtt';
import { describe, expect, it } from 'vitest';
import { consoleSuite } from './support/console';
import { confirmYes, dialog, rowAction, rowIndexOf } from './support/crud';

/** The demo tenant (server/db/seed/monitoring.ts): project 钱塘江大桥健康监测, groups 主桥 / 引桥, devices QJ-…. */
const DEMO = '100001';
const PROJECT = '钱塘江大桥健康监测';

interface Page<T> {
  records: T[];
  total: number;
}
type Row = Record<string, unknown> & { id: string };

describe('project, device and MQTT screens (tenant 100001)', () => {
  const c = consoleSuite({ tenantId: DEMO });
  const cell = (text: string) => c.page.locator('.bp6-table-cell').filter({ hasText: text });
  const list = async (path: string, query: Record<string, string> = {}) => (await c.api.get<Page<Row>>(`/api/wit-xinde/${path}/list`, { size: 100, ...query })).body.data.records;
  const tree = () => c.page.locator('.vg-device-tree');
  const treeNode = (title: string) => tree().locator('.bp6-tree-node-content').filter({ hasText: title }).first();
  const connect = (username: string, password: string, clientId: string) =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${c.server.app.broker?.port}`, { username, password, clientId, protocolVersion: 4, reconnectPeriod: 0, connectTimeout: 5000 });

  /** Clicks a row's action; the tables are wider than the page and Blueprint renders visible columns only. */
  async function clickAction(text: string, action: string) {
    const index = await rowIndexOf(c.page, text);
    await c.page.locator('.vg-crud-main .bp6-table-quadrant-main .bp6-table-quadrant-scroll-container').evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    await c.page.locator(`.bp6-table-cell-row-${index} .vg-action-${action}`).first().click();
  }


  it('shows the project tree beside the device list; a group filters the list', async () => {
    const { page } = c;
    await page.goto('/xinde/device');
    await cell('QJ-TILT-01').first().waitFor();
    // The declared reference shows the device's project by name in the 所属项目 column.
    await page.locator('.bp6-table-column-name').filter({ hasText: '所属项目' }).first().waitFor();
    await cell(PROJECT).first().waitFor();
    await treeNode(PROJECT).waitFor();
    await treeNode(PROJECT).locator('.bp6-tree-node-caret').click();
    await treeNode('主桥').waitFor();
    await treeNode('引桥').waitFor();

    await treeNode('引桥').click();
    await cell('QJ-RAIN-01').first().waitFor();
    await expect.poll(() => cell('QJ-TILT-01').count()).toBe(0);
    await cell('QJ-HLS-02').first().waitFor();
    expect(await page.locator('.vg-total').innerText()).toContain('2');

    // The project itself lists all of its devices again.
    await treeNode(PROJECT).click();
    await cell('QJ-TILT-01').first().waitFor();
  });

  it('opens the debug view of a device from its row', async () => {
    const { page } = c;
    const [rain] = await list('device', { code: 'QJ-RAIN-01' });
    await clickAction('QJ-RAIN-01', 'debug');
    await page.waitForURL(`**/xinde/device/debug?id=${rain.id}`);
    await page.locator('.vg-debug-head', { hasText: 'QJ-RAIN-01' }).waitFor();
  });

  it('creates a broker identity and a device in the picked group; the identity connects', async () => {
    const { page } = c;
    await page.goto('/xinde/mqttuser');
    await page.locator('.vg-add').click();
    await page.locator('#field-username').fill('e2e-dev-01');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await dialog(page).getByText('密码至少8位').or(dialog(page).getByText('请输入密码')).first().waitFor();
    await page.locator('#field-password').fill('Device#Secret01');
    await page.locator('#field-clientType').selectOption('1');
    await page.locator('#field-clientId').fill('E2E-DEV-01');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    await cell('e2e-dev-01').first().waitFor();
    const [identity] = await list('mqttuser', { username: 'e2e-dev-01' });
    expect(identity).toMatchObject({ clientType: 1, clientId: 'E2E-DEV-01' });
    expect(identity.password).toBeUndefined();

    // Editing without typing a password keeps the stored one.
    await (await rowAction(page, 'e2e-dev-01', 'edit')).click();
    await expect.poll(() => page.locator('#field-clientId').inputValue()).toBe('E2E-DEV-01');
    await page.locator('#field-remark').fill('E2E 设备');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('更新成功').last().waitFor();
    const client = await connect('e2e-dev-01', 'Device#Secret01', 'E2E-DEV-01');
    await client.endAsync(true);

    await page.goto('/xinde/device');
    await treeNode(PROJECT).locator('.bp6-tree-node-caret').click();
    await treeNode('引桥').click();
    await cell('QJ-RAIN-01').first().waitFor();
    await page.locator('.vg-add').click();
    await page.locator('#field-code').fill('E2E-DEV-01');
    await page.locator('#field-name').fill('E2E 倾角计');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    await cell('E2E-DEV-01').first().waitFor();
    const [created] = await list('device', { code: 'E2E-DEV-01' });
    const [approach] = (await c.api.post<Row[]>('/api/wit-xinde/device/getDeviceGroup', { projectId: created.projectId })).body.data.filter((g) => g.title === '引桥');
    expect(created).toMatchObject({ name: 'E2E 倾角计', projectName: PROJECT, groupId: approach.id });
  });

  it('sends a command to an offline device and says no reply came', async () => {
    const { page } = c;
    await clickAction('E2E-DEV-01', 'command');
    await page.locator('#command-name').fill('reboot');
    await page.locator('#command-params').fill('{"delay": 1}');
    await page.locator('#command-wait').fill('0');
    await page.locator('.vg-command-send').click();
    await page.locator('.vg-command-outcome', { hasText: '已发送,暂无回复' }).waitFor();
    await dialog(page).getByRole('button', { name: '关闭' }).click();
  });

  it('removes a project to the recycle bin and restores it', async () => {
    const { page } = c;
    await page.goto('/xinde/project');
    await cell('QJ-BRIDGE').first().waitFor();
    await page.locator('.vg-add').click();
    await page.locator('#field-name').fill('E2E 回收项目');
    await page.locator('#field-code').fill('E2E-BIN');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    await page.getByText('新增成功').last().waitFor();
    await cell('E2E-BIN').first().waitFor();

    await clickAction('E2E-BIN', 'delete');
    await confirmYes(page);
    await page.getByText('删除成功').last().waitFor();
    await expect.poll(() => cell('E2E-BIN').count()).toBe(0);

    await page.locator('.vg-project-recycle-open').click();
    const bin = page.locator('.vg-recycle-E2E-BIN');
    await bin.waitFor();
    await bin.locator('.vg-recycle-restore').click();
    await confirmYes(page, '确定恢复项目「E2E 回收项目」?');
    await page.getByText('操作成功!').last().waitFor();
    await expect.poll(() => bin.count()).toBe(0);
    await dialog(page).getByRole('button', { name: '关闭' }).click();
    await cell('E2E-BIN').first().waitFor();
    expect((await list('project', { code: 'E2E-BIN' })).map((p) => p.name)).toEqual(['E2E 回收项目']);
  });
});
