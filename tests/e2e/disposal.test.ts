import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_ACCOUNT, OPERATOR_PASSWORD } from '../../server/db/seed/operator';
import { DEMO_STAFF_PASSWORD } from '../../server/db/seed/workflow';
import { signedIn } from '../support/client';
import { emit, reading } from '../integration/alarms/support';
import { demoId, submit } from '../integration/monitoring/support';
import { type ConsoleUnderTest, openConsole, openMenu, signIn } from './support/console';

/**
 * Alarm disposal as a process (docs/alarms.md "Disposal"): a red alarm on the demo bridge starts the seeded disposal;
 * the alarm list shows it running and leads to its detail; the duty operator confirms, the engineer checks on site,
 * the administrator reviews; the process ends and the alarm list shows the alarm handled with the process's record.
 */
describe('alarm disposal in the console', () => {
  let c: ConsoleUnderTest;
  const title = '跨中静力水准仪';

  beforeAll(async () => {
    c = await openConsole();
    const admin = await signedIn(c.server.url, 'admin', 'admin', '100001');
    await submit(admin, 'devicethreshold', { targetType: 1, deviceId: demoId('device:QJ-HLS-01'), pointKey: 'settlement', level1Upper: 40 });
    await emit(c.server, [reading('QJ-HLS-01', 'settlement', 45)]);
    await c.server.app.workflow.disposal.settled();
  });
  afterAll(() => c?.stop());

  const as = async (tenantAccount: string, password: string) => {
    await c.page.context().clearCookies();
    await signIn(c.page, '100001', tenantAccount, password);
  };
  const row = (text: string) => c.page.locator('.vg-work-row').filter({ hasText: text }).first();
  /** The alarm list's disposal cell: the table is wider than the page and Blueprint renders visible columns only. */
  async function disposalCell() {
    await c.page.locator('.vg-crud-main .bp6-table-quadrant-main .bp6-table-quadrant-scroll-container').evaluate((el) => {
      el.scrollLeft = el.scrollWidth;
    });
    return c.page.locator('.vg-alarm-disposal').first();
  }

  /** Claims the alarm's task among 待签事务 and approves it with a comment on its handle page. */
  async function claimAndApprove(taskName: string, comment: string) {
    const { page } = c;
    await openMenu(page, '待签事务', '/work/claim');
    const waiting = row(taskName);
    await waiting.locator('.vg-action-claim').click();
    await page.waitForURL('**/work/process/alarm/handle/**');
    await page.locator('.vg-process-task').getByText(taskName).waitFor();
    await page.fill('#field-comment', comment);
    await page.locator('.vg-task-approve').click();
    await page.locator('.vg-task-finished').getByText('办理成功').waitFor();
    await page.waitForURL('**/work/todo');
  }

  it('shows the running disposal on the alarm and leads to its detail', async () => {
    const { page } = c;
    await as(OPERATOR_ACCOUNT, OPERATOR_PASSWORD);
    await openMenu(page, '告警列表', '/xinde/alarm');
    await page.locator('.bp6-table-cell').filter({ hasText: title }).first().waitFor();
    const disposal = await disposalCell();
    await disposal.getByText('处置中').waitFor();
    expect(await disposal.innerText()).toContain('告警确认');
    await disposal.click();
    await page.waitForURL('**/work/process/alarm/detail/**');
    await page.getByText(title).first().waitFor();
    const diagram = page.locator('.vg-process-diagram .vg-flow-diagram');
    await diagram.locator('.djs-element[data-element-id="confirm"]').waitFor();
    await expect.poll(async () => (await diagram.locator('.djs-element[data-element-id="confirm"]').getAttribute('class')) ?? '').toMatch(/active/);
  });

  it('is confirmed, checked and reviewed by the people of its steps; its end handles the alarm', async () => {
    const { page } = c;
    await claimAndApprove('告警确认', '值班确认,已通知现场');
    await as('zhangsan', DEMO_STAFF_PASSWORD);
    await claimAndApprove('现场核查', '支座沉降,已加密观测');
    await as('admin', 'admin');
    await claimAndApprove('复核', '同意关闭');

    await openMenu(page, '告警列表', '/xinde/alarm');
    await page.locator('.bp6-table-cell').filter({ hasText: title }).first().waitFor();
    await (await disposalCell()).getByText('已完成').waitFor();
    // Handled with the process's record, as the list's 处理结果 says (read here rather than scrolled to).
    const admin = await signedIn(c.server.url, 'admin', 'admin', '100001');
    const [alarm] = (await admin.get<{ records: Array<Record<string, unknown>> }>('/api/wit-xinde/alarm/list', { deviceId: demoId('device:QJ-HLS-01') })).body.data.records;
    expect(alarm).toMatchObject({ handleState: 1, handleUserName: '管理员', processState: 3 });
    expect(String(alarm.handleResult)).toContain('现场核查: 支座沉降,已加密观测');
    expect(c.browser.errors).toEqual([]);
  });
});
