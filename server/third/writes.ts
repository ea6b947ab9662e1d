import type { Row } from '../db/database';
import { transact, type Trx } from '../db/repository';
import type { Platform } from '../platform';
import { formatDateTime } from '../time';

/**
 * What binding and sync share: a write planned while checking and run later in one transaction, and the comparison
 * that makes a second sync change nothing (docs/third-party.md "How sync matches and what it changes").
 */

export type Write = (trx: Trx, now: string) => Promise<unknown>;

/** What a sync did with the remote rows. */
export interface SyncCounts {
  total: number;
  created: number;
  updated: number;
  unchanged: number;
}

export const counts = (): SyncCounts => ({ total: 0, created: 0, updated: 0, unchanged: 0 });
export const ID = /^\d{1,20}$/;
/** A validation message without the contract's prefix, to go after the row it is about. */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message.replace(/^参数校验失败: /, '') : String(error));

/** Two stored values mean the same (numbers stored as text or as numbers alike). */
export function same(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || a === '') return b === null || b === undefined || b === '';
  if (typeof a === 'number' || typeof b === 'number') return Number(a) === Number(b);
  return String(a) === String(b);
}

/** The fields of `wanted` that carry a value and differ from `existing`: an empty remote value keeps the local one. */
export function changesOf(existing: Row, wanted: Row): Row {
  const out: Row = {};
  for (const [field, value] of Object.entries(wanted)) {
    if (value === null || value === undefined || value === '') continue;
    if (!same(existing[field], value)) out[field] = value;
  }
  return out;
}

export const compact = (values: Row): Row => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined && v !== ''));
export const clip = (value: string | null, max: number) => (value === null ? null : value.slice(0, max));

/**
 * Runs the planned writes in one transaction; they write through repository views of it (`repo.within(trx)`), which
 * tell the caches of the tables touched once it has committed.
 */
export async function applyWrites(platform: Platform, writes: Write[]): Promise<void> {
  if (writes.length === 0) return;
  const now = formatDateTime();
  await transact(platform, async (trx) => {
    for (const write of writes) await write(trx, now);
  });
}
