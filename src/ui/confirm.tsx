import { Alert } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { type ReactNode, useSyncExternalStore } from 'react';

interface Pending {
  message: string;
  /** Shown below the question: what the answer will do (what a project's removal takes with it). */
  detail?: ReactNode;
  resolve: (ok: boolean) => void;
}

let pending: Pending | undefined;
/** Each question mounts a fresh alert, so its portal comes last in the body: above a dialog that asked it. */
let asked = 0;
const listeners = new Set<() => void>();
const emit = () => {
  for (const listener of listeners) listener();
};

/** Asks a yes/no question (确定/取消); resolves true on confirm. Rendered by <ConfirmHost/>. */
export function confirm(message: string, detail?: ReactNode): Promise<boolean> {
  pending?.resolve(false);
  asked += 1;
  return new Promise((resolve) => {
    pending = { message, detail, resolve };
    emit();
  });
}

function settle(ok: boolean) {
  const current = pending;
  pending = undefined;
  emit();
  current?.resolve(ok);
}

export function ConfirmHost() {
  const { t } = useLingui();
  const current = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => pending,
  );
  return (
    <Alert
      isOpen={!!current}
      icon="help"
      intent="primary"
      confirmButtonText={t`确定`}
      cancelButtonText={t`取消`}
      onConfirm={() => settle(true)}
      onCancel={() => settle(false)}
      canEscapeKeyCancel
      key={asked}
    >
      <p>{current?.message}</p>
      {current?.detail}
    </Alert>
  );
}
