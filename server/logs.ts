import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Row } from './db/database';
import { nextId } from './ids';
import { formatDateTime } from './time';
import { slices } from './db/slices';

export type LogTable = 'blade_log_api' | 'blade_log_error' | 'blade_log_usual';

const SERVICE_ID = 'vigil';
const HOST = hostname();
const FLUSH_MS = 500;
const BATCH = 200;

/**
 * The API, error and usual logs of blade-log. Entries are buffered and written in batches so that logging every
 * call costs the request nothing; a failed write goes to the process log instead of failing the request.
 */
export class LogWriter {
  private readonly pending = new Map<LogTable, Row[]>();
  private timer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly logger: FastifyBaseLogger,
  ) {}

  write(table: LogTable, entry: Row): void {
    const now = formatDateTime();
    const row: Row = {
      id: nextId(),
      tenantId: '000000',
      serviceId: SERVICE_ID,
      serverHost: HOST,
      env: process.env.NODE_ENV ?? 'production',
      createTime: now,
      updateTime: now,
      status: 1,
      isDeleted: 0,
      ...entry,
    };
    const list = this.pending.get(table) ?? [];
    list.push(row);
    this.pending.set(table, list);
    if (list.length >= BATCH) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS);
  }

  /** An unexpected failure of a background worker (`source`: ingest, push, alarm), with what it was doing. */
  error(source: string, error: unknown, context?: string): void {
    const message = error instanceof Error ? error.message : String(error);
    this.write('blade_log_error', {
      exceptionName: source,
      message: context ? `${context}: ${message}` : message,
      stackTrace: error instanceof Error ? error.stack : undefined,
    });
  }

  /** Writes everything buffered so far; resolves when it is stored. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batches = [...this.pending.entries()];
    this.pending.clear();
    this.flushing = this.flushing.then(async () => {
      for (const [table, rows] of batches) {
        for (const slice of slices(rows, BATCH)) {
          try {
            await this.db.insertInto(table).values(slice).execute();
          } catch (error) {
            this.logger.error({ err: error, table }, 'could not store log entries');
          }
        }
      }
    });
    return this.flushing;
  }
}
