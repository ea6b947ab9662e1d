import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_STAFF_PASSWORD } from '../../server/db/seed/workflow';
import type { FlowInstance } from '../../resources/wire/flow';
import { signedIn } from '../support/client';
import { type ConsoleUnderTest, openConsole, openMenu, signIn } from './support/console';

/**
 * The leave request end to end (docs/workflow.md, spec §2 "Workflow routes"): the demo tenant's engineer zhangsan
 * starts a leave from its form; his department head lisi finds it among 待签事务, claims it and approves it with a
 * comment on the handle page; zhangsan sees it finished among 已发事务 and opens its detail, with the history timeline
 * and the diagram.
 */
describe('the leave request in the console', () => {
  let c: ConsoleUnderTest;
  const reason = `回老家办事 ${Date.now()}`;
  const comment = '同意,路上注意安全';
  const row = (text: string) => c.page.locator('.vg-work-row').filter({ hasText: text });

  beforeAll(async () => {
    c = await openConsole();
  });
  afterAll(() => c?.stop());

  it('zhangsan starts a leave from its form and finds it among 已发事务', async () => {
    const { page } = c;
    await signIn(page, '100001', 'zhangsan', DEMO_STAFF_PASSWORD);
    await openMenu(page, '发起事务', '/work/start');
    await row('请假流程').locator('.vg-action-start').click();
    await page.waitForURL('**/work/process/leave/form/**');

    // The form checks before sending, in Chinese.
    await page.locator('.vg-leave-submit').click();
    await page.locator('.vg-field-startTime').getByText('请选择开始时间').waitFor();
    await page.locator('.vg-field-reason').getByText('请输入请假理由').waitFor();
    await page.fill('#field-startTime', '2026-12-10 09:00:00');
    await page.fill('#field-endTime', '2026-12-09 18:00:00');
    await page.locator('.vg-leave-submit').click();
    await page.locator('.vg-field-endTime').getByText('结束时间应晚于开始时间').waitFor();

    await page.fill('#field-endTime', '2026-12-11 18:00:00');
    await page.fill('#field-reason', reason);
    await page.locator('.vg-field-endTime').getByText('共 2 天').waitFor();
    await page.locator('.vg-leave-submit').click();
    await page.getByText('提交成功').first().waitFor();
    await page.waitForURL('**/work/send');
    const sent = row('张三的请假申请(2天)').first();
    await sent.waitFor();
    await sent.locator('.vg-instance-state').getByText('运行中').waitFor();
    expect(await sent.innerText()).toContain('部门领导审批');
    // The form's tab has closed: its work is done.
    expect(await page.locator('.vg-tabs .vg-tab').allInnerTexts()).not.toContain('发起流程');
  });

  it('lisi claims it among 待签事务 and approves it with a comment', async () => {
    const { page } = c;
    await page.context().clearCookies();
    await signIn(page, '100001', 'lisi', DEMO_STAFF_PASSWORD);
    await openMenu(page, '待签事务', '/work/claim');
    const waiting = row('张三的请假申请(2天)').first();
    await waiting.locator('.vg-task-status').getByText('待签收').waitFor();
    await waiting.locator('.vg-action-claim').click();
    await page.getByText('签收成功').first().waitFor();
    await page.waitForURL('**/work/process/leave/handle/**');

    // The handle page: the leave, the task's buttons, the history so far.
    await page.locator('.vg-fact-reason').getByText(reason).waitFor();
    await page.locator('.vg-fact-applicant').getByText('张三').waitFor();
    await page.locator('.vg-process-task').getByText('部门领导审批').waitFor();
    await page.locator('.vg-timeline-step').filter({ hasText: '部门领导审批' }).getByText('进行中').waitFor();
    await page.locator('.vg-task-approve').waitFor();

    const completes: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/work/complete-task')) completes.push(request.method());
    });
    await page.fill('#field-comment', comment);
    // A double click sends once.
    await page.locator('.vg-task-approve').dblclick();
    await page.locator('.vg-task-finished').getByText('办理成功').waitFor();
    expect(completes).toEqual(['POST']);

    // Back to 待办事务 once said; the task is among 办结事务, approved with the comment sent.
    await page.waitForURL('**/work/todo');
    await openMenu(page, '办结事务', '/work/done');
    const done = row('张三的请假申请(2天)').first();
    await done.locator('.vg-pass').getByText('同意').waitFor();
    expect(await done.innerText()).toContain(comment);
    await done.getByText('流程已结束').waitFor();
  });

  it('zhangsan sees it finished among 已发事务 and opens its detail with the timeline and the diagram', async () => {
    const { page } = c;
    await page.context().clearCookies();
    await signIn(page, '100001', 'zhangsan', DEMO_STAFF_PASSWORD);
    await openMenu(page, '已发事务', '/work/send');
    const sent = row('张三的请假申请(2天)').first();
    await sent.locator('.vg-instance-state').getByText('已完成').waitFor();
    await sent.locator('.vg-action-detail').click();
    await page.waitForURL('**/work/process/leave/detail/**');

    await page.locator('.vg-fact-reason').getByText(reason).waitFor();
    await page.locator('.vg-process-head .vg-instance-state').getByText('已完成').waitFor();
    // The timeline: submitted, approved by lisi with his comment, ended as approved.
    const steps = page.locator('.vg-timeline-step');
    await steps.filter({ hasText: '批准' }).waitFor();
    const approval = steps.filter({ hasText: '部门领导审批' });
    await approval.getByText('李四').waitFor();
    await approval.locator('.vg-pass').getByText('同意').waitFor();
    await approval.locator('.vg-timeline-comment').getByText(comment).waitFor();
    expect((await steps.allInnerTexts())[0]).toContain('提交申请');
    expect(await page.locator('.vg-timeline-step.is-open').count()).toBe(0);

    // The diagram: bpmn-js drew it, the path taken marked finished, nothing active.
    const diagram = page.locator('.vg-process-diagram .vg-flow-diagram');
    await diagram.locator('.djs-element[data-element-id="deptLeaderAudit"]').waitFor();
    const marked = async (id: string) => (await diagram.locator(`.djs-element[data-element-id="${id}"]`).getAttribute('class')) ?? '';
    await expect.poll(() => marked('deptLeaderAudit')).toMatch(/finished/);
    expect(await marked('approved')).toMatch(/finished/);
    expect(await marked('bossAudit')).not.toMatch(/finished|active/);

    // What the page showed is what the server holds.
    const api = await signedIn(c.server.url, 'zhangsan', DEMO_STAFF_PASSWORD, '100001');
    const instances = (await api.get<{ records: FlowInstance[] }>('/api/blade-flow/work/send-list', {})).body.data.records;
    expect(instances.find((i) => i.processTitle === '张三的请假申请(2天)')?.state).toBe(3);
    expect(c.browser.errors).toEqual([]);
  });
});
