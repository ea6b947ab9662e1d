import { Icon, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { FlowHistoryStep } from '../../../resources/wire/flow';
import { PassTag } from './flowParts';

/** Why a step ended other than by completion (FlowHistoryStep.reason). */
const REASONS: Readonly<Record<string, MessageDescriptor>> = {
  timeout: msg`超时`,
  transfer: msg`转办`,
  delegate: msg`委派`,
  deleted: msg`已删除`,
  cancelled: msg`已取消`,
};

/** A duration in the user's language: 1天2小时3分, 45秒 under a minute (the server's text is Chinese only). */
export function durationText(i18n: I18n, ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < 60) return i18n._(msg`${seconds}秒`);
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return [days ? i18n._(msg`${days}天`) : '', hours ? i18n._(msg`${hours}小时`) : '', minutes ? i18n._(msg`${minutes}分`) : ''].filter(Boolean).join(i18n.locale === 'zh' ? '' : ' ');
}

const stepClass = (step: FlowHistoryStep) =>
  step.endTime === null ? 'is-open' : step.pass === false ? 'is-rejected' : 'is-done';

/** Steps that are the process's own bookkeeping: the timeline shows people's steps, events and decisions. */
const shown = (step: FlowHistoryStep) => step.historyActivityType !== 'sequenceFlow';

/**
 * The instance's history (process/history-flow-list), oldest first: each step's name, who, when, how long, the
 * comment, approve or reject, and why it ended otherwise (timeout, transfer, delegation).
 */
export function HistoryTimeline({ steps }: { steps: readonly FlowHistoryStep[] | undefined }) {
  const { t, i18n } = useLingui();
  if (steps === undefined) return <Spinner size={20} />;
  const visible = steps.filter(shown);
  if (visible.length === 0) return <NonIdealState icon="history" title={t`暂无流转记录`} />;
  return (
    <ol className="vg-timeline" aria-label={t`流转记录`}>
      {visible.map((step, index) => (
        // A step is entered again when the process loops (a resubmitted leave): its place tells the entries apart.
        // biome-ignore lint/suspicious/noArrayIndexKey: the history only grows at its end
        <li key={`${step.historyActivityId}-${step.createTime}-${index}`} className={`vg-timeline-step ${stepClass(step)}`}>
          <span className="vg-timeline-dot" />
          <div className="vg-timeline-title">
            <span className="vg-timeline-name">{step.historyActivityName}</span>
            {step.assigneeName && (
              <span className="vg-timeline-who">
                <Icon icon="person" size={12} /> {step.assigneeName}
              </span>
            )}
            <PassTag pass={step.pass} />
            {step.reason && (
              <Tag minimal intent="warning" className="vg-timeline-reason">
                {REASONS[step.reason] ? i18n._(REASONS[step.reason]) : step.reason}
              </Tag>
            )}
            {step.endTime === null && (
              <Tag minimal intent="primary">
                <Trans>进行中</Trans>
              </Tag>
            )}
          </div>
          <div className="vg-timeline-meta">
            <span>
              <Trans>开始</Trans> {step.createTime}
            </span>
            {step.endTime && (
              <span>
                <Trans>结束</Trans> {step.endTime}
              </span>
            )}
            {step.durationMs !== null && (
              <span>
                <Trans>用时</Trans> {durationText(i18n, step.durationMs)}
              </span>
            )}
          </div>
          {step.comment && <div className="vg-timeline-comment">{step.comment}</div>}
        </li>
      ))}
    </ol>
  );
}
