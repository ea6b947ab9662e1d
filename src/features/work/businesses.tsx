import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { ComponentType } from 'react';
import type { FlowInstance } from '../../../resources/wire/flow';
import { AlarmPanel } from './AlarmPanel';
import { InstancePanel } from './InstancePanel';
import { LeavePanel } from './LeavePanel';
import { GENERAL_ROUTE } from './processRoutes';

/** The labels of a task's two answers (approve, reject) where its step means something else by them. */
export interface AnswerLabels {
  approve: MessageDescriptor;
  reject: MessageDescriptor;
}

/** A business the process pages show (src/features/work/processRoutes.ts PROCESS_BUSINESSES names the routes). */
export interface Business {
  /** The heading of its panel. */
  title: MessageDescriptor;
  Panel: ComponentType<{ businessId: string; onProcess?(instance: FlowInstance): void }>;
  /** A step's own answers by its BPMN element id (the leave's 调整申请: 重新提交 or 撤销申请). */
  answers?: Readonly<Record<string, AnswerLabels>>;
}

export const DEFAULT_ANSWERS: AnswerLabels = { approve: msg`同意`, reject: msg`驳回` };

/** The handle and detail pages are the same for every business; only its panel (and a step's answers) differ. */
export const BUSINESSES: Readonly<Record<string, Business>> = {
  leave: {
    title: msg`请假申请`,
    Panel: LeavePanel,
    answers: { adjust: { approve: msg`重新提交`, reject: msg`撤销申请` } },
  },
  alarm: { title: msg`告警信息`, Panel: AlarmPanel },
  [GENERAL_ROUTE]: { title: msg`流程信息`, Panel: InstancePanel },
};

export const answersOf = (business: Business | undefined, taskDefinitionKey: string | undefined): AnswerLabels =>
  (taskDefinitionKey && business?.answers?.[taskDefinitionKey]) || DEFAULT_ANSWERS;
