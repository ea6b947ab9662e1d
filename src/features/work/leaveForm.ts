import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { EN } from '../../../resources/messages-en';
import type { LeaveForm } from '../../../resources/wire/flow';

/** What the leave form edits: the request's own fields (the definition comes from the route). */
export interface LeaveDraft {
  startTime: string;
  endTime: string;
  reason: string;
  /** The approver's user id; empty: the applicant's department head is a candidate. */
  taskUser: string;
}

export type LeaveField = keyof LeaveDraft;

const DAY_MS = 86_400_000;
/** The server's limits (blade-desk/process/leave/start-process). */
export const REASON_MAX = 500;
export const LONGEST_LEAVE_DAYS = 366;

const DATETIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

/** A `yyyy-MM-dd HH:mm:ss` as a local time, or undefined when it is not one (2026-02-30 included). */
export function parseLocal(text: string): Date | undefined {
  const m = DATETIME.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1).map(Number);
  const date = new Date(year, month - 1, day, hour, minute, second);
  const same =
    date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day && date.getHours() === hour && date.getMinutes() === minute && date.getSeconds() === second;
  return same ? date : undefined;
}

/** Whole days between start and end, rounded up, at least 1 (the process variable `days`, as the server counts). */
export function leaveDays(startTime: string, endTime: string): number | undefined {
  const start = parseLocal(startTime);
  const end = parseLocal(endTime);
  if (!start || !end || end <= start) return undefined;
  return Math.max(1, Math.ceil((end.getTime() - start.getTime()) / DAY_MS));
}

/** The form's problems by field, in the server's words (checked again there); empty when it may be sent. */
export function leaveProblems(draft: LeaveDraft): Partial<Record<LeaveField, MessageDescriptor>> {
  const problems: Partial<Record<LeaveField, MessageDescriptor>> = {};
  const start = parseLocal(draft.startTime);
  const end = parseLocal(draft.endTime);
  if (!draft.startTime.trim()) problems.startTime = msg`请选择开始时间`;
  else if (!start) problems.startTime = msg`时间格式应为 yyyy-MM-dd HH:mm:ss`;
  if (!draft.endTime.trim()) problems.endTime = msg`请选择结束时间`;
  else if (!end) problems.endTime = msg`时间格式应为 yyyy-MM-dd HH:mm:ss`;
  else if (start && end <= start) problems.endTime = msg`结束时间应晚于开始时间`;
  else if (start && end.getTime() - start.getTime() > LONGEST_LEAVE_DAYS * DAY_MS) problems.endTime = msg`请假不能超过一年`;
  const reason = draft.reason.trim();
  if (!reason) problems.reason = msg`请输入请假理由`;
  else if (reason.length > REASON_MAX) problems.reason = msg`请假理由不能超过${REASON_MAX}个字符`;
  return problems;
}

/** The start-process body (LeaveForm) of a checked draft. */
export function leaveBody(processDefinitionId: string, draft: LeaveDraft): LeaveForm {
  return {
    processDefinitionId,
    startTime: draft.startTime.trim(),
    endTime: draft.endTime.trim(),
    reason: draft.reason.trim(),
    ...(draft.taskUser ? { taskUser: draft.taskUser } : {}),
  };
}

/** The server's refusals that are about one field: shown there, not as a toast. */
const FIELD_REFUSALS: ReadonlyArray<readonly [LeaveField, readonly string[]]> = [
  ['startTime', ['请选择开始时间']],
  ['endTime', ['请选择结束时间', '结束时间应晚于开始时间', '请假不能超过一年']],
  ['reason', ['请输入请假理由', '请假理由不能超过500个字符']],
  ['taskUser', ['审批人不存在或不属于本租户']],
];

/** The field a refusal is about, in either language of the server's envelope (resources/messages-en.ts). */
export function refusedField(message: string): LeaveField | undefined {
  return FIELD_REFUSALS.find(([, messages]) => messages.some((chinese) => chinese === message || EN[chinese] === message))?.[0];
}
