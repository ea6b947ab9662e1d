import type { ErrorInfo } from 'react';
import type { ErrorLogEntry } from '../../machines/errorLog';
import { RequestError } from '../api/http';
import { errorLogActor } from './shell';
import { formatDateTime } from '../../resources/datetime';

export function entryOf(error: unknown, type: string, info = ''): ErrorLogEntry {
  const e = error instanceof Error ? error : new Error(String(error));
  return { type, url: window.location.href, message: e.message, stack: e.stack ?? '', info, time: formatDateTime() };
}

export function recordError(error: unknown, type = 'error', info = ''): void {
  // A refused call left uncaught was toasted by the request layer and is no error; a 5xx or network failure is.
  if (!isRealFailure(error)) return;
  errorLogActor.send({ type: 'errorLog.add', entry: entryOf(error, type, info) });
}

/**
 * Whether a failure is a real error for the local error log: a runtime error, a network failure (code 0 or a status
 * outside the envelope's) or a 5xx. A refusal the server answers on purpose (400 validation, 403, 404…) is not.
 */
export function isRealFailure(error: unknown): boolean {
  if (!(error instanceof RequestError)) return true;
  return error.code === 0 || error.code >= 500;
}

/**
 * Logs a failure the user has already been told about (a failed save: the request layer toasted it), so it reaches
 * the local error log without a second toast (spec §8 "Failed save") — unless it was a refusal, which the badge
 * would only make look like a fault.
 */
export function logFailure(error: unknown, type: string): void {
  if (!isRealFailure(error)) return;
  errorLogActor.send({ type: 'errorLog.add', entry: entryOf(error, type) });
}

/** React 19 root error callbacks: every error a component throws goes to the local error log. */
export const rootErrorHandlers = {
  onUncaughtError: (error: unknown, info: ErrorInfo) => recordError(error, 'error', info.componentStack ?? ''),
  onCaughtError: (error: unknown, info: ErrorInfo) => recordError(error, 'error', info.componentStack ?? ''),
};

/** Runtime errors outside React: thrown in handlers and timers, and unhandled rejections. */
export function captureWindowErrors(): void {
  window.addEventListener('error', (event) => {
    if (event.error || event.message) recordError(event.error ?? event.message, 'error', event.filename ?? '');
  });
  window.addEventListener('unhandledrejection', (event) => recordError(event.reason, 'unhandledrejection'));
}
