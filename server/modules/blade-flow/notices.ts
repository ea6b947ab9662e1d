import { notice } from '../../../resources/desk/notice';
import { insertNotice, publishNotice } from '../blade-desk/notices';
import type { Workflow } from '../../flow/service';
import type { Platform } from '../../platform';

/** Dictionary `notice`'s 事务通知: what a task reaching someone is announced as. */
const TASK_NOTICE = 6;

/**
 * Tells people a task reached them through the notice centre (docs/workflow.md "Notices"): its assignee, or everyone
 * who may claim it now.
 */
export async function announceTask(
  platform: Platform,
  task: { tenantId: string; name: string },
  title: string,
  userIds: readonly string[],
  what = '待办任务',
): Promise<void> {
  if (userIds.length) await publishNotice(platform, { tenantId: task.tenantId, userIds, ...noticeOf(what, task.name, title) });
}

/** A task's notice: what happened, the task and its process, and where to act. */
function noticeOf(what: string, taskName: string, title: string) {
  return {
    title: `${what}: ${taskName} - ${title}`,
    category: TASK_NOTICE,
    content: `<p>${escapeHtml(title)}</p><p>${escapeHtml(taskName)}</p><p><a href="/work/todo">我的待办</a> <a href="/work/claim">待签事务</a></p>`,
  };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** In every step: each task that began is announced to whoever holds or may claim it, committed with the task. */
export function announceNewTasks(platform: Platform, workflow: Workflow): void {
  workflow.onStepWrite(async (trx, outcome, instance) => {
    for (const task of outcome.newTasks) {
      const { assignee, candidates } = task.assignment;
      const userIds = assignee ? [assignee] : await workflow.directory.usersOf(outcome.tenantId, candidates);
      if (userIds.length) await insertNotice(trx, { tenantId: outcome.tenantId, userIds, ...noticeOf(assignee ? '待办任务' : '待签任务', task.name, instance.title) });
    }
  });
  workflow.onStep((outcome) => {
    if (outcome.newTasks.length) platform.events.emit('changed', notice.table);
  });
}
