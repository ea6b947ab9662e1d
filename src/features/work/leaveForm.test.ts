import { describe, expect, it } from 'vitest';
import { EN } from '../../../resources/messages-en';
import { type LeaveDraft, leaveBody, leaveDays, leaveProblems, parseLocal, refusedField } from './leaveForm';

const draft = (over: Partial<LeaveDraft> = {}): LeaveDraft => ({
  startTime: '2026-12-01 09:00:00',
  endTime: '2026-12-03 18:00:00',
  reason: '回老家',
  taskUser: '',
  ...over,
});
const messages = (d: LeaveDraft) => Object.fromEntries(Object.entries(leaveProblems(d)).map(([k, m]) => [k, m?.message]));

describe('leave form', () => {
  it('a complete request has no problem', () => {
    expect(leaveProblems(draft())).toEqual({});
  });

  it('asks for every required field in the server\'s words', () => {
    expect(messages(draft({ startTime: '', endTime: ' ', reason: '  ' }))).toEqual({
      startTime: '请选择开始时间',
      endTime: '请选择结束时间',
      reason: '请输入请假理由',
    });
  });

  it('refuses what is not a time, impossible dates included', () => {
    expect(messages(draft({ startTime: '2026/12/01 09:00' })).startTime).toBe('时间格式应为 yyyy-MM-dd HH:mm:ss');
    expect(messages(draft({ endTime: '2026-02-30 09:00:00' })).endTime).toBe('时间格式应为 yyyy-MM-dd HH:mm:ss');
    expect(parseLocal('2026-12-01 24:00:00')).toBeUndefined();
    expect(parseLocal(' 2026-12-01 09:30:15 ')?.getMinutes()).toBe(30);
  });

  it('the end must be after the start, and within a year', () => {
    expect(messages(draft({ endTime: '2026-12-01 09:00:00' })).endTime).toBe('结束时间应晚于开始时间');
    expect(messages(draft({ endTime: '2026-11-30 09:00:00' })).endTime).toBe('结束时间应晚于开始时间');
    expect(messages(draft({ endTime: '2027-12-03 09:00:00' })).endTime).toBe('请假不能超过一年');
    expect(leaveProblems(draft({ endTime: '2027-12-01 09:00:00' }))).toEqual({});
  });

  it('limits the reason to 500 characters', () => {
    expect(leaveProblems(draft({ reason: 'x'.repeat(500) }))).toEqual({});
    expect(messages(draft({ reason: 'x'.repeat(501) })).reason).toBe('请假理由不能超过{REASON_MAX}个字符');
  });

  it('counts whole days rounded up, at least one, as the server does', () => {
    expect(leaveDays('2026-12-01 09:00:00', '2026-12-03 18:00:00')).toBe(3);
    expect(leaveDays('2026-12-01 09:00:00', '2026-12-01 12:00:00')).toBe(1);
    expect(leaveDays('2026-12-01 09:00:00', '2026-12-04 09:00:00')).toBe(3);
    expect(leaveDays('2026-12-01 09:00:00', '2026-12-01 09:00:00')).toBeUndefined();
    expect(leaveDays('', '2026-12-01 09:00:00')).toBeUndefined();
  });

  it('sends the trimmed values, and the approver only when chosen', () => {
    expect(leaveBody('d1', draft({ reason: '  回老家 ' }))).toEqual({ processDefinitionId: 'd1', startTime: '2026-12-01 09:00:00', endTime: '2026-12-03 18:00:00', reason: '回老家' });
    expect(leaveBody('d1', draft({ taskUser: '42' })).taskUser).toBe('42');
  });

  it('puts the server\'s refusals at their fields, in either language', () => {
    expect(refusedField('结束时间应晚于开始时间')).toBe('endTime');
    expect(refusedField(EN['结束时间应晚于开始时间'])).toBe('endTime');
    expect(refusedField(EN['审批人不存在或不属于本租户'])).toBe('taskUser');
    expect(refusedField('请输入请假理由')).toBe('reason');
    expect(refusedField('流程定义不存在或无权操作')).toBeUndefined();
  });
});
