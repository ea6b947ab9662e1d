import { Button, Callout } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { leaveFor } from './processPage';

/**
 * The frame of a form that starts a process: a refusal the server gave above the fields, then 提交 (`submitClass`
 * names it for the browser suites) and 取消 (back to 发起事务).
 */
export function ProcessForm({ refusal, sending, submitClass, onSubmit, children }: { refusal?: string; sending: boolean; submitClass: string; onSubmit(): void; children: ReactNode }) {
  const { t } = useLingui();
  return (
    <form
      className="vg-process-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {refusal && (
        <Callout intent="danger" compact className="vg-process-refusal">
          {refusal}
        </Callout>
      )}
      {children}
      <div className="vg-process-actions">
        <Button type="submit" intent="primary" icon="send-message" text={t`提交`} loading={sending} className={submitClass} />
        <Button text={t`取消`} onClick={() => leaveFor('/work/start')} />
      </div>
    </form>
  );
}
