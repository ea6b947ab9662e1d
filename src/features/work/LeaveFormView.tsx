import { Button, FormGroup, TextArea } from '@blueprintjs/core';
import type { MessageDescriptor } from '@lingui/core';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { RequestError } from '../../api/http';
import { DateInput } from '../../crud/DateInput';
import { toastSuccess } from '../../ui/toast';
import { startLeave, type UserOption } from './api';
import { type LeaveDraft, type LeaveField, leaveBody, leaveDays, leaveProblems, refusedField } from './leaveForm';
import { leaveFor } from './processPage';
import { ProcessForm } from './ProcessForm';
import { UserPickerDialog, userLabel } from './UserPicker';
import '../../crud/crud.css';

const EMPTY: LeaveDraft = { startTime: '', endTime: '', reason: '', taskUser: '' };

/**
 * The leave form (/work/process/leave/form/:processDefinitionId): the start and end, the reason and, optionally,
 * the approver (else the applicant's department head). Checked on blur and on submit with the server's rules, sent
 * to leave/start-process; the new request is then among 已发事务.
 */
export function LeaveFormView({ processDefinitionId }: { processDefinitionId: string }) {
  const { t, i18n } = useLingui();
  const [draft, setDraft] = useState<LeaveDraft>(EMPTY);
  const [approver, setApprover] = useState<UserOption>();
  const [problems, setProblems] = useState<Partial<Record<LeaveField, string>>>({});
  const [refusal, setRefusal] = useState<string>();
  const [picking, setPicking] = useState(false);
  const [sending, setSending] = useState(false);

  const translate = (all: Partial<Record<LeaveField, MessageDescriptor>>) =>
    Object.fromEntries(Object.entries(all).map(([field, message]) => [field, i18n._(message)])) as Partial<Record<LeaveField, string>>;
  /** On blur: the field's own problem (the others' as they were). */
  const check = (field: LeaveField, next = draft) => {
    const found = translate(leaveProblems(next));
    setProblems((p) => ({ ...p, [field]: found[field] }));
  };
  const change = (field: LeaveField, value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setProblems((p) => ({ ...p, [field]: undefined }));
  };

  const submit = async () => {
    if (sending) return;
    const found = translate(leaveProblems(draft));
    setProblems(found);
    setRefusal(undefined);
    if (Object.values(found).some(Boolean)) return;
    setSending(true);
    try {
      await startLeave(leaveBody(processDefinitionId, draft));
      toastSuccess(t`提交成功`);
      leaveFor('/work/send');
    } catch (error) {
      setSending(false);
      if (!(error instanceof RequestError) || error.code !== 400) return; // the request layer has shown it
      const field = refusedField(error.message);
      if (field) setProblems((p) => ({ ...p, [field]: error.message }));
      else setRefusal(error.message);
    }
  };

  const days = leaveDays(draft.startTime, draft.endTime);
  const group = (field: LeaveField, label: string, required: boolean) => ({
    label,
    labelFor: `field-${field}`,
    labelInfo: required ? '*' : undefined,
    intent: problems[field] ? ('danger' as const) : ('none' as const),
    className: `vg-field-${field}`,
  });

  return (
    <ProcessForm refusal={refusal} sending={sending} submitClass="vg-leave-submit" onSubmit={() => void submit()}>
      <FormGroup {...group('startTime', t`开始时间`, true)} helperText={problems.startTime}>
        <DateInput id="field-startTime" kind="datetime" value={draft.startTime} invalid={!!problems.startTime} onChange={(v) => change('startTime', v)} onBlur={() => check('startTime')} />
      </FormGroup>
      <FormGroup {...group('endTime', t`结束时间`, true)} helperText={problems.endTime ?? (days ? t`共 ${days} 天` : undefined)}>
        <DateInput id="field-endTime" kind="datetime" value={draft.endTime} invalid={!!problems.endTime} onChange={(v) => change('endTime', v)} onBlur={() => check('endTime')} />
      </FormGroup>
      <FormGroup {...group('reason', t`请假理由`, true)} helperText={problems.reason}>
        <TextArea
          id="field-reason"
          fill
          rows={4}
          value={draft.reason}
          intent={problems.reason ? 'danger' : 'none'}
          onChange={(e) => change('reason', e.target.value)}
          onBlur={() => check('reason')}
        />
      </FormGroup>
      <FormGroup {...group('taskUser', t`审批人`, false)} helperText={problems.taskUser ?? t`不选则由部门负责人审批`}>
        <div className="vg-process-approver">
          <span id="field-taskUser" className="vg-process-approver-name">
            {approver ? userLabel(approver) : t`部门负责人`}
          </span>{' '}
          <Button size="small" icon="person" text={t`选择`} onClick={() => setPicking(true)} />{' '}
          {approver && (
            <Button
              size="small"
              variant="minimal"
              icon="cross"
              text={t`清除`}
              onClick={() => {
                setApprover(undefined);
                change('taskUser', '');
              }}
            />
          )}
        </div>
      </FormGroup>
      {picking && (
        <UserPickerDialog
          title={t`选择审批人`}
          onClose={() => setPicking(false)}
          onPick={(user) => {
            setApprover(user);
            change('taskUser', user.id);
            setPicking(false);
          }}
        />
      )}
    </ProcessForm>
  );
}
