import { Button, Callout, FormGroup, Spinner, TextArea } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useReducer, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { isPlainAlreadyDone, type TaskOutcome, taskMachine } from '../../../machines/task';
import type { CompleteTaskBody, FlowTask, HandOverBody } from '../../../resources/wire/flow';
import { navigate } from '../../app/navigation';
import { sessionActor } from '../../app/shell';
import { toastSuccess } from '../../ui/toast';
import { claimTask, completeTask, delegateTask, taskDetail, transferTask } from './api';
import { answersOf, BUSINESSES } from './businesses';
import { DefinitionName, TaskStatusTag, useFlowRoutes } from './flowParts';
import { leaveFor, useProcessRoute } from './processPage';
import { detailPath, type ProcessRoute } from './processRoutes';
import { ProcessTrack } from './ProcessTrack';
import { UserPickerDialog } from './UserPicker';
import './work.css';

type HandleRoute = Extract<ProcessRoute, { page: 'handle' }>;

/**
 * /work/process/<route>/handle/:taskId/:processInstanceId/:businessId: the business's panel, the task with a comment
 * box and its answers — 签收 while unclaimed, then 同意 / 驳回 / 转办 / 委派 — driven by the task machine
 * (machines/task.ts), and the history timeline and diagram below. One page for every business.
 */
export default function HandlePage() {
  const route = useProcessRoute();
  if (route?.page !== 'handle') return null;
  return <HandleView key={route.taskId} route={route} />;
}

function HandleView({ route }: { route: HandleRoute }) {
  const { t, i18n } = useLingui();
  const business = BUSINESSES[route.business];
  const userId = useSelector(sessionActor, (s) => s.context.user?.userId);
  const [task, setTask] = useState<FlowTask>();
  const [trackVersion, bumpTrack] = useReducer((n: number) => n + 1, 0);
  const [picking, setPicking] = useState<'transfer' | 'delegate'>();
  const taskRead = useRef<() => void>(() => undefined);

  const outcomeText: Record<TaskOutcome, string> = { approved: t`办理成功`, rejected: t`驳回成功`, transferred: t`转办成功`, delegated: t`委派成功` };
  const actor = useActorRef(
    taskMachine.provide({
      actors: {
        claim: fromPromise<void, { taskId: string }>(({ input }) => claimTask(input.taskId)),
        complete: fromPromise<void, CompleteTaskBody>(({ input }) => completeTask(input)),
        transfer: fromPromise<void, HandOverBody>(({ input }) => transferTask(input)),
        delegate: fromPromise<void, HandOverBody>(({ input }) => delegateTask(input)),
      },
      actions: {
        claimed: () => {
          toastSuccess(t`签收成功`);
          taskRead.current();
          bumpTrack();
        },
        finished: ({ context }) => {
          if (context.outcome) toastSuccess(outcomeText[context.outcome]);
          taskRead.current();
          bumpTrack();
        },
        leave: () => leaveFor('/work/todo'),
      },
    }),
    { input: { taskId: route.taskId, processInstanceId: route.processInstanceId } },
  );
  const state = useSelector(actor, (s) => s.value);
  const context = useSelector(actor, (s) => s.context);

  // The task's detail: once to start the machine, again after a claim (its holder changed).
  useEffect(() => {
    let live = true;
    let started = false;
    const read = () =>
      taskDetail(route.taskId).then(
        (found) => {
          if (!live) return;
          setTask(found);
          if (!started) actor.send({ type: 'task.loaded', status: found.status, mine: found.assignee !== null && found.assignee === userId });
          started = true;
        },
        (error: unknown) => {
          if (live && !started) actor.send({ type: 'task.missing', message: error instanceof Error ? error.message : String(error) });
        },
      );
    taskRead.current = () => void read();
    void read();
    return () => {
      live = false;
    };
  }, [route.taskId, actor, userId]);

  // Told by the server that the task moved on: its header shows where it is now.
  useEffect(() => {
    if (state === 'claimedByOther' || state === 'done') taskRead.current();
  }, [state]);

  const busy = state === 'claiming' || state === 'completing' || state === 'transferring' || state === 'delegating';
  const answers = answersOf(business, task?.taskDefinitionKey);
  const routes = useFlowRoutes();
  const detail = task ? detailPath(routes.entries, task) : undefined;
  const canAnswer = state === 'ready' || state === 'completing' || state === 'transferring' || state === 'delegating';
  const commentBox = canAnswer || state === 'unclaimed' || state === 'claiming' || state === 'failed';

  return (
    <div className="vg-page vg-process">
      <section className="vg-process-section">
        <div className="vg-process-head">
          <h2 className="vg-process-title">{task?.processTitle ?? t`办理任务`}</h2>
          {task && <DefinitionName name={task.processDefinitionName} version={task.processDefinitionVersion} />}
          {task && <TaskStatusTag task={task} />}
        </div>
        {task && (
          <p className="vg-process-sub">
            {t`当前环节`}: <strong className="vg-process-task">{task.taskName}</strong> · {t`发起人`}: {task.startUserName ?? '-'} · {t`到达时间`}: {task.createTime}
            {task.dueTime ? ` · ${t`超时时间`}: ${task.dueTime}` : ''}
          </p>
        )}
      </section>

      <section className="vg-process-section vg-process-business">
        <h3>{business ? i18n._(business.title) : t`业务信息`}</h3>
        {business && <business.Panel businessId={route.businessId} />}
      </section>

      <section className="vg-process-section vg-process-handle" data-state={String(state)}>
        <h3>{t`审批`}</h3>
        {state === 'loading' && <Spinner size={20} />}
        {state === 'unclaimed' || state === 'claiming' ? (
          <Callout intent="primary" compact className="vg-task-unclaimed">
            {t`该任务尚未签收,签收后即可办理。`}
            {task?.candidates ? ` ${t`候选人`}: ${task.candidates}` : ''}
          </Callout>
        ) : null}
        {canAnswer && task?.delegation === 'pending' && task.ownerName && (
          <Callout intent="primary" compact>
            {t`此任务由 ${task.ownerName} 委派给你,办理后交回给委派人。`}
          </Callout>
        )}
        {context.error && (state === 'ready' || state === 'unclaimed') && (
          <Callout intent="danger" compact className="vg-task-refusal">
            {context.error}
          </Callout>
        )}
        {state === 'failed' && (
          <Callout intent="danger" className="vg-task-failed" title={t`操作没有完成`}>
            <p>{t`${context.error ?? ''}:审批意见已保留,可以重试。`}</p>
            <Button intent="primary" icon="refresh" text={t`重试`} className="vg-task-retry" onClick={() => actor.send({ type: 'task.retry' })} />{' '}
            <Button text={t`返回`} onClick={() => actor.send({ type: 'task.dismiss' })} />
          </Callout>
        )}
        {(state === 'finished' || state === 'left') && context.outcome && (
          <Callout intent="success" className="vg-task-finished" title={outcomeText[context.outcome]}>
            {t`正在返回待办事务……`}
          </Callout>
        )}
        {state === 'claimedByOther' && (
          <Callout intent="warning" className="vg-task-claimed-by-other" title={t`任务已被他人签收`}>
            <Button text={t`返回待签事务`} onClick={() => leaveFor('/work/claim')} />
          </Callout>
        )}
        {state === 'heldByOther' && (
          <Callout intent="warning" className="vg-task-held" title={t`该任务当前由 ${task?.assigneeName ?? '-'} 办理`}>
            {task?.delegation === 'pending' && task.owner === userId ? t`你已将此任务委派出去,对方办理后交回给你。` : null}
          </Callout>
        )}
        {state === 'done' && (
          <Callout intent="success" className="vg-task-done" title={t`任务已办结`}>
            {/* What stands, when the server refused an answer that said the other thing. */}
            {context.error && !isPlainAlreadyDone(context.error) && <p className="vg-task-stands">{context.error}</p>}
            {detail && <Button icon="eye-open" text={t`查看详情`} onClick={() => navigate(detail)} />}
          </Callout>
        )}
        {state === 'unavailable' && (
          <Callout intent="danger" className="vg-task-unavailable" title={t`无法办理该任务`}>
            {context.error}
          </Callout>
        )}

        {commentBox && (
          <FormGroup label={t`审批意见`} labelFor="field-comment" className="vg-process-comment">
            <TextArea
              id="field-comment"
              fill
              rows={3}
              value={context.comment}
              disabled={busy}
              placeholder={t`不填则按所选操作记为“同意”或“驳回”`}
              onChange={(e) => actor.send({ type: 'comment.change', comment: e.target.value })}
            />
          </FormGroup>
        )}
        {(state === 'unclaimed' || state === 'claiming') && (
          <div className="vg-process-actions">
            <Button intent="primary" icon="hand-up" text={t`签收`} className="vg-task-claim" loading={state === 'claiming'} onClick={() => actor.send({ type: 'task.claim' })} />
          </div>
        )}
        {canAnswer && (
          <div className="vg-process-actions">
            <Button
              intent="success"
              icon="tick-circle"
              text={i18n._(answers.approve)}
              className="vg-task-approve"
              disabled={busy}
              loading={state === 'completing' && context.pending?.action === 'approve'}
              onClick={() => actor.send({ type: 'task.approve' })}
            />
            <Button
              intent="danger"
              icon="undo"
              text={i18n._(answers.reject)}
              className="vg-task-reject"
              disabled={busy}
              loading={state === 'completing' && context.pending?.action === 'reject'}
              onClick={() => actor.send({ type: 'task.reject' })}
            />
            <Button icon="swap-horizontal" text={t`转办`} className="vg-task-transfer" disabled={busy} loading={state === 'transferring'} onClick={() => setPicking('transfer')} />
            {task?.delegation !== 'pending' && (
              <Button icon="send-to" text={t`委派`} className="vg-task-delegate" disabled={busy} loading={state === 'delegating'} onClick={() => setPicking('delegate')} />
            )}
          </div>
        )}
      </section>

      <ProcessTrack processInstanceId={route.processInstanceId} version={trackVersion} />

      {picking && (
        <UserPickerDialog
          title={picking === 'transfer' ? t`转办给` : t`委派给`}
          confirmText={picking === 'transfer' ? t`转办` : t`委派`}
          exclude={userId}
          onClose={() => setPicking(undefined)}
          onPick={(user) => {
            actor.send(picking === 'transfer' ? { type: 'task.transfer', userId: user.id } : { type: 'task.delegate', userId: user.id });
            setPicking(undefined);
          }}
        >
          <p className="bp6-text-muted">
            {picking === 'transfer' ? t`转办后任务由对方办理,不再回到你这里。` : t`委派后由对方办理,办理完成后任务交回给你。`}
          </p>
        </UserPickerDialog>
      )}
    </div>
  );
}
