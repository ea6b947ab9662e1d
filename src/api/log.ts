import type { ErrorLogEntry } from '../../machines/errorLog';
import { http, type Envelope } from './client';

/** Sends the local error logs as a JSON array of {type,url,message,stack,info,time}. */
export const uploadErrorLogs = (logs: ErrorLogEntry[]) =>
  http.post<Envelope<unknown>>('api/blade-log/error/upload', { json: logs }).then(() => undefined);
