import { type Intent, OverlayToaster, type Toaster } from '@blueprintjs/core';

let toaster: Promise<Toaster> | undefined;

/** Shows a toast at the top of the page (created on first use). */
export function toast(message: string, intent: Intent = 'danger'): void {
  toaster ??= OverlayToaster.create({ position: 'top' });
  void toaster.then((t) => t.show({ message, intent, timeout: 3000 }));
}

export const toastSuccess = (message: string) => toast(message, 'success');
export const toastWarning = (message: string) => toast(message, 'warning');
