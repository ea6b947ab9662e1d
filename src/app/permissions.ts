import { useSyncExternalStore } from 'react';
import { getStore, setStore } from './storage';

let permissions: Record<string, true> = getStore('permission') ?? {};
const listeners = new Set<() => void>();

/** The button permission map {code: true} of the signed-in user. */
export function setPermissions(next: Record<string, true>): void {
  permissions = next;
  setStore('permission', next);
  for (const listener of listeners) listener();
}

export const hasPermission = (code: string): boolean => permissions[code] === true;

export function usePermissions(): Record<string, true> {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => permissions,
  );
}
