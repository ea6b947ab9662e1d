import { type Intent, OverlayToaster, type Toaster } from '@blueprintjs/core';

let toaster: Promise<Toaster> | undefined;

/** The page's one toaster, created on first use. */
export function toasterOf(): Promise<Toaster> {
  toaster ??= OverlayToaster.create({ position: 'top' });
  return toaster;
}

/** Shows a toast at the top of the page. */
export function toast(message: string, intent: Intent = 'danger'): void {
  void toasterOf().then((t) => t.show({ message, intent, timeout: 3000 }));
}

export const toastSuccess = (message: string) => toast(message, 'success');
export const toastWarning = (message: string) => toast(message, 'warning');
