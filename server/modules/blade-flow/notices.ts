import { publishNotice } from '../blade-desk/notices';
import type { StepOutcome, Workflow } from '../../flow/service';
import type { Platform } from '../../platform';

/** Dictionary `notice`'s 事务通知: what a task reaching someone is announced as. */
const TASK_NOTICE = 6;

/**
 * Tells people a task reached them through the notice centre (docs/workflow.md "Notices"): its assignee, or everyone
 * who may claim it now.
 */
export async function announceTask(
  platform: Platform,
  task: { tenantId: string; instanceId: string; name: string },
  userIds: readonly string[],
  what = '待办任务',
): Promise<void> {
  if (userIds.length === 0) return;
  // The instance's title, of the task the step or the route just read.
  const instance = await platform.db.selectFrom('wf_instance').select('title').where('id', '=', task.instanceId).executeTakeFirst();
  await publishNotice(platform, {
    tenantId: task.tenantId,
    title: `${what}: ${task.name} - ${instance?.title ?? ''}`,
    category: TASK_NOTICE,
    content: `<p>${escapeHtml(instance?.title ?? '')}</p><p>${escapeHtml(task.name)}</p><p><a href="/work/todo">我的待办</a> <a href="/work/claim">待签事务</a></p>`,
    userIds,
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** After every step: each task that began is announced to whoever holds or may claim it. */
export function announceNewTasks(platform: Platform, workflow: Workflow): (outcome: StepOutcome) => Promise<void> {
  return async (outcome) => {
    for (const task of outcome.newTasks) {
      const { assignee, candidates } = task.assignment;
      const users = assignee ? [assignee] : await workflow.directory.usersOf(outcome.tenantId, candidates);
      await announceTask(platform, { tenantId: outcome.tenantId, instanceId: outcome.instanceId, name: task.name }, users, assignee ? '待办任务' : '待签任务');
    }
  };
}
