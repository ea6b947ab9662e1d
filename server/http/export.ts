import type { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { EXPORT_LIMITS, type ExportLimits } from '../config';
import type { Row } from '../db/database';
import type { CallContext, Repository } from '../db/repository';
import { formatDateTime } from '../time';
import type { Condition, Query } from './conditions';
import { badRequest } from './envelope';
import { slices } from '../db/slices';
import { nextTurn } from '../turn';

/**
 * Lists exported as xlsx (docs/resources.md "Export"): the rows of a list call, with its filters and sorting, read
 * page by page and streamed into the workbook as they come, so an export of many rows holds one page in memory.
 * The caller names the columns and their titles (the console sends its visible columns in the user's language).
 */

/** Parameters of the export itself, never filters. */
export const EXPORT_KEYS = ['columns', 'labels', 'exportName', 'current', 'size'] as const;

export interface ExportColumn {
  field: string;
  title: string;
}

export interface ExportSpec {
  columns: ExportColumn[];
  /** Per field, the text shown for a stored value (dictionary labels). */
  labels: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** The screen's name, the start of the file name. */
  name: string;
}

/** One page (1-based) of the rows as the list shows them, and the total of the query. */
export type PageReader = (current: number, size: number) => Promise<{ records: Row[]; total: number }>;

const FIELD = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const MAX_COLUMNS = 200;

/** Splits on commas not escaped by a backslash; `\,` and `\\` stand for themselves. */
function splitEscaped(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '\\' && i + 1 < text.length) current += text[(i += 1)];
    else if (ch === ',') {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

/** `columns=field:title,…` (a title's commas escaped as `\,`); a bare field is its own title. */
export function parseColumns(text: string | undefined): ExportColumn[] {
  const entries = splitEscaped(text ?? '').filter((entry) => entry.trim() !== '');
  if (entries.length === 0) throw badRequest('请选择要导出的列');
  if (entries.length > MAX_COLUMNS) throw badRequest(`导出的列不能超过 ${MAX_COLUMNS} 个`);
  return entries.map((entry) => {
    const colon = entry.indexOf(':');
    const field = (colon < 0 ? entry : entry.slice(0, colon)).trim();
    const title = colon < 0 ? field : entry.slice(colon + 1).trim().slice(0, 100);
    if (!FIELD.test(field)) throw badRequest(`导出列格式错误: ${entry.slice(0, 80)}`);
    return { field, title: title || field };
  });
}

/** Refuses fields the list does not show: hidden ones (passwords) by name, the others as unknown. */
export function checkColumns(columns: readonly ExportColumn[], exportable: ReadonlySet<string>, hidden: readonly string[] = []): void {
  for (const { field } of columns) {
    if (hidden.includes(field)) throw badRequest(`字段 ${field} 不能导出`);
    if (!exportable.has(field)) throw badRequest(`导出字段 ${field} 不存在`);
  }
}

const LABELS = z.record(z.string(), z.record(z.string(), z.string().max(200)));

/** `labels={"field":{"value":"text"}}`: how the screen shows coded values (dictionaries, fixed choices). */
export function parseLabels(text: string | undefined, columns: readonly ExportColumn[]): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  if (!text) return out;
  let parsed: z.infer<typeof LABELS>;
  try {
    parsed = LABELS.parse(JSON.parse(text));
  } catch {
    throw badRequest('导出的取值标签格式错误');
  }
  const fields = new Set(columns.map((c) => c.field));
  for (const [field, values] of Object.entries(parsed)) if (fields.has(field)) out.set(field, new Map(Object.entries(values)));
  return out;
}

const single = (value: unknown): string | undefined => {
  const first = Array.isArray(value) ? value[0] : value;
  return first === undefined || first === null ? undefined : String(first);
};

/**
 * The export's spec from a list call's parameters, checked against the fields the list shows, and the parameters
 * left for the list query.
 */
export function exportRequest(params: Query, exportable: ReadonlySet<string>, hidden: readonly string[] | undefined, fallbackName: string): { spec: ExportSpec; query: Query } {
  const columns = parseColumns(single(params.columns));
  checkColumns(columns, exportable, hidden);
  const spec = { columns, labels: parseLabels(single(params.labels), columns), name: single(params.exportName)?.trim() || fallbackName };
  const query: Query = { ...params };
  for (const key of EXPORT_KEYS) delete query[key];
  return { spec, query };
}

/** A cell as the list shows it: labels for coded values, dates as `yyyy-MM-dd HH:mm:ss`, objects as JSON. */
export function cellOf(value: unknown, labels?: ReadonlyMap<string, string>): ExcelJS.CellValue {
  if (value === undefined || value === null) return null;
  const label = labels?.get(String(value));
  if (label !== undefined) return label;
  if (value instanceof Date) return formatDateTime(value);
  if (typeof value === 'string' || typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** Characters a file or sheet name may not hold (Windows, Excel). */
const UNSAFE = /[\\/:*?"<>|[\]]/g;
const unsafe = (text: string) => [...text].filter((ch) => ch.charCodeAt(0) >= 32).join('').replace(UNSAFE, '');

const stamp = (date: Date) => formatDateTime(date).replace(/[-: ]/g, '').replace(/^(\d{8})/, '$1-');

/** `设备列表-20260301-081500.xlsx`: the screen's name and when. */
export function exportFileName(name: string, now = new Date()): string {
  const safe = unsafe(name).trim().slice(0, 60) || 'export';
  return `${safe}-${stamp(now)}.xlsx`;
}

/** RFC 6266: an ASCII fallback, and the real name in UTF-8 (exportFileName left no quote or backslash in it). */
function disposition(fileName: string): string {
  const ascii = [...fileName].map((ch) => (ch >= ' ' && ch <= '~' ? ch : '_')).join('');
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** A writable stream, Node's or the readable-stream package's (archiver's): both keep `needDrain` and emit `drain`. */
export interface Intake extends EventEmitter {
  readonly _writableState?: { needDrain?: boolean };
  readonly destroyed?: boolean;
}

/** Resolves once the stream takes more, or is gone. */
export function drained(stream: Intake): Promise<void> {
  if (!stream._writableState?.needDrain || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

/**
 * Where a sheet's rows wait to be zipped. exceljs writes a sheet's XML into a buffer of its own that says yes to
 * every write and passes it on to archiver's pass-through without waiting, so the response's backpressure stops at
 * the zip: waiting on the response alone, a slow client's export was read to its end into memory (50 MB of a 55 MB
 * file ahead of the client: core/export-stream.test.ts). The pass-through fills as the zip stops reading from it.
 */
function zipIntake(sheet: ExcelJS.Worksheet): Intake | undefined {
  const [intake] = (sheet as unknown as { stream?: { pipes?: Intake[] } }).stream?.pipes ?? [];
  return intake;
}

const widthOf = (title: string) => Math.max(10, Math.min(40, [...title].reduce((n, ch) => n + (ch.charCodeAt(0) > 255 ? 2 : 1), 0) + 4));

/** The rows of an export: how many, and the rows a page at a time in the list's order. */
export interface ExportRows {
  total: number;
  pages: AsyncIterable<Row[]>;
}

/** Refuses a list beyond the limit, before anything is sent: the caller narrows its filters. */
function assertWithin(total: number, maxRows: number): void {
  if (total > maxRows) throw badRequest(`共 ${total} 条数据,超过导出上限 ${maxRows} 条,请缩小查询范围`);
}

/** Pages of a list call read one after the other (current = 1, 2, …): for lists no repository serves. */
export async function pagedRows(read: PageReader, limits: ExportLimits = EXPORT_LIMITS): Promise<ExportRows> {
  const first = await read(1, limits.pageSize);
  assertWithin(first.total, limits.maxRows);
  async function* pages(): AsyncGenerator<Row[]> {
    let page = first.records;
    for (let current = 1, written = 0; page.length > 0; ) {
      yield page.slice(0, limits.maxRows - written);
      written += page.length;
      if (page.length < limits.pageSize || written >= limits.maxRows) return;
      current += 1;
      page = (await read(current, limits.pageSize)).records;
    }
  }
  return { total: first.total, pages: pages() };
}

/**
 * The rows of a repository's list query: their ids first, in the list's order (one sorted query), then the rows by
 * id a page at a time, each page through the scoped repository again and shaped by `shape` (the list's names). An
 * offset per page would sort the whole list once per page.
 */
export async function repositoryRows(repo: Repository, ctx: CallContext, query: Query, extra: Condition[], shape: (rows: Row[]) => Promise<Row[]>, limits: ExportLimits = EXPORT_LIMITS): Promise<ExportRows> {
  const ids = await repo.ids(ctx, query, extra, limits.maxRows + 1);
  if (ids.length > limits.maxRows) assertWithin((await repo.page(ctx, { ...query, size: 1 }, extra)).total, limits.maxRows);
  async function* pages(): AsyncGenerator<Row[]> {
    for (const chunk of slices(ids, limits.pageSize)) {
      const found = await repo.all(ctx, {}, [(eb) => eb(`${repo.resource.table}.id`, 'in', chunk)], chunk.length);
      const byId = new Map(found.map((row) => [row.id, row]));
      // A row removed since the ids were read is left out.
      const ordered = chunk.map((id) => byId.get(id)).filter((row) => row !== undefined);
      yield shape(ordered);
    }
  }
  return { total: ids.length, pages: pages() };
}

/** Lets the socket write what the zip made: with SQLite's synchronous reads, awaiting alone never reaches I/O. */

/**
 * Answers the rows as an xlsx file: one header row of the titles, then the rows as they come. The row count goes
 * out as `X-Export-Rows`, so the console can say how many rows are coming. A client that goes away stops the
 * reading.
 */
export async function sendExport(request: FastifyRequest, reply: FastifyReply, spec: ExportSpec, rows: ExportRows): Promise<FastifyReply> {
  // Loaded with the first export, not at start.
  const { default: Excel } = await import('exceljs');
  const out = new PassThrough();
  // A client gone mid-file makes the zip's late writes fail: expected, not a crash.
  out.on('error', (error) => request.log.debug({ err: error }, 'export stream closed'));
  const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet(unsafe(spec.name).slice(0, 31) || 'Sheet1', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = spec.columns.map((c) => ({ header: c.title, key: c.field, width: widthOf(c.title) }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let gone = false;
  // The response's close, not the request's: a request closes once its body is read.
  reply.raw.on('close', () => {
    gone = !reply.raw.writableFinished;
  });
  const intake = zipIntake(sheet);
  const write = async () => {
    for await (const page of rows.pages) {
      for (const row of page) sheet.addRow(spec.columns.map((c) => cellOf(row[c.field], spec.labels.get(c.field)))).commit();
      // The next page is read once the zip and the response take more. A client gone meanwhile ends the wait too:
      // the response destroys `out`, and the zip, unpiped, reads its intake empty (core/export-stream.test.ts).
      await Promise.all([intake && drained(intake), drained(out)]);
      await nextTurn();
      if (gone) return void out.destroy();
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error: unknown) => {
    request.log.error({ err: error }, 'export failed while streaming');
    out.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', disposition(exportFileName(spec.name)))
    .header('x-export-rows', String(rows.total))
    .header('access-control-expose-headers', 'content-disposition, x-export-rows')
    .header('cache-control', 'no-store')
    .send(out);
}
