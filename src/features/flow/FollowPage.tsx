import { Button, Dialog, DialogBody, DialogFooter, FormGroup, TextArea } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import type { FlowInstance } from '../../../resources/wire/flow';
import { usePermissions } from '../../app/permissions';
import { toastSuccess } from '../../ui/toast';
import { deleteInstance, followList } from '../work/api';
import { DetailButton } from '../work/DetailButton';
import { INSTANCE_STATES, instanceColumns, useFlowRoutes } from '../work/flowParts';
import { type WorkColumn, WorkList } from '../work/WorkList';

const columns: readonly WorkColumn<FlowInstance>[] = [
  instanceColumns.title,
  instanceColumns.definition,
  instanceColumns.starter,
  instanceColumns.startTime,
  instanceColumns.endTime,
  instanceColumns.currentTasks,
  instanceColumns.currentAssignees,
  instanceColumns.state,
];

const search = [
  { name: 'processInstanceId', label: msg`流程实例ID` },
  { name: 'processDefinitionKey', label: msg`流程标识` },
  { name: 'state', label: msg`状态`, options: INSTANCE_STATES },
] as const;

/** Longest reason the server keeps (follow/delete-process-instance). */
const REASON_MAX = 500;

/**
 * /flow/follow (流程跟踪): the tenant's instances with their current tasks and holders; 详情 opens the detail page of
 * the instance's category, 删除 (button flow_follow_delete, running instances) ends one with a reason.
 */
export default function FollowPage() {
  const { t } = useLingui();
  const routes = useFlowRoutes();
  const permissions = usePermissions();
  const [deleting, setDeleting] = useState<{ instance: FlowInstance; refresh: () => void }>();
  return (
    <>
      <WorkList
        load={followList}
        columns={columns}
        rowKey={(row) => row.processInstanceId}
        search={search}
        actions={(row, refresh) => (
          <>
            <DetailButton routes={routes} instance={row} />
            {permissions.flow_follow_delete && row.state === 1 && (
              <Button size="small" intent="danger" icon="trash" className="vg-action-delete" text={t`删除`} onClick={() => setDeleting({ instance: row, refresh })} />
            )}
          </>
        )}
      />
      {deleting && (
        <DeleteDialog
          instance={deleting.instance}
          onClose={() => setDeleting(undefined)}
          onDeleted={() => {
            deleting.refresh();
            setDeleting(undefined);
          }}
        />
      )}
    </>
  );
}

/** 删除: the reason is asked (required); the instance ends and its open tasks are cancelled. */
function DeleteDialog({ instance, onClose, onDeleted }: { instance: FlowInstance; onClose(): void; onDeleted(): void }) {
  const { t } = useLingui();
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const said = reason.trim();
    if (!said) return setProblem(t`请输入删除原因`);
    if (said.length > REASON_MAX) return setProblem(t`删除原因不能超过${REASON_MAX}个字符`);
    setBusy(true);
    try {
      await deleteInstance(instance.processInstanceId, said);
      toastSuccess(t`删除成功`);
      onDeleted();
    } catch {
      // the request layer has shown the refusal
      setBusy(false);
    }
  };
  return (
    <Dialog isOpen title={t`删除流程实例`} icon="trash" onClose={onClose} className="vg-follow-delete">
      <DialogBody>
        <p>{t`删除后「${instance.processTitle}」将终止,其未完成的任务一并取消,不能撤销。`}</p>
        <FormGroup label={t`删除原因`} labelFor="field-deleteReason" labelInfo="*" intent={problem ? 'danger' : 'none'} helperText={problem}>
          <TextArea
            id="field-deleteReason"
            fill
            rows={3}
            value={reason}
            intent={problem ? 'danger' : 'none'}
            onChange={(e) => {
              setReason(e.target.value);
              setProblem(undefined);
            }}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t`取消`} onClick={onClose} />
            <Button intent="danger" text={t`删除`} loading={busy} onClick={() => void submit()} />
          </>
        }
      />
    </Dialog>
  );
}
