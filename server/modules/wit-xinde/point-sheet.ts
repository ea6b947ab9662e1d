import { Readable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { device, devicePoint } from '../../../resources/iot/device';
import { monitorFactorsItem } from '../../../resources/iot/monitoring';
import type { Row } from '../../db/database';
import { type CallContext, transact } from '../../db/repository';
import { contextOf } from '../../http/context';
import { ApiError, badRequest, failure, ok } from '../../http/envelope';
import type { Platform } from '../../platform';
import { formatDateTime } from '../../time';
import { within } from './common';
import { needs } from '../../auth/rights';
import { limited } from '../../http/limits';

/**
 * The point sheet (点位导入): an .xlsx or .csv whose first row names the columns, one device point per row. Every
 * row is checked; if any is wrong nothing is written and the answer lists the rows (numbered as in the sheet) with
 * what is wrong. Points that exist (same device and key) are updated, the others inserted.
 */

/** Column headers (Chinese as the template has them, or the field names) -> field. */
const HEADERS: Record<string, string> = {
  设备编号: 'deviceCode',
  deviceCode: 'deviceCode',
  点位标识: 'pointKey',
  pointKey: 'pointKey',
  点位名称: 'name',
  name: 'name',
  单位: 'unit',
  unit: 'unit',
  因素项编号: 'factorsItemCode',
  factorsItemCode: 'factorsItemCode',
  精度: 'precision',
  precision: 'precision',
  通道: 'channel',
  channel: 'channel',
  排序: 'sort',
  sort: 'sort',
  备注: 'remark',
  remark: 'remark',
};
const REQUIRED_COLUMNS = ['deviceCode', 'pointKey', 'name'];
/** A field's column as the template heads it (its first Chinese header): what a message about it names. */
const columnOf = (field: string) => Object.keys(HEADERS).find((header) => HEADERS[header] === field) ?? field;
const SHEET_FIELDS = new Set(Object.values(HEADERS));
/** zod's `pointKey: …` parts of a row's problem, with the column's header for the field. */
const withColumns = (message: string) =>
  message.split('; ').map((part) => part.replace(/^(\w+): /, (whole, field: string) => (SHEET_FIELDS.has(field) ? `${columnOf(field)}: ` : whole))).join('; ');
const MAX_ROWS = 5000;

export interface SheetError {
  row: number;
  message: string;
}

interface SheetRow {
  row: number;
  cells: Record<string, string>;
}

/** A cell as the text a person typed (numbers as written, formulas by their result). */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return formatDateTime(value);
  if (typeof value === 'object') {
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('richText' in value) return value.richText.map((t) => t.text).join('');
    if ('text' in value) return String(value.text);
    return '';
  }
  return String(value).trim();
}

async function readSheet(fileName: string, data: Buffer): Promise<SheetRow[]> {
  // Loaded with the first point sheet, not at start.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  const lower = fileName.toLowerCase();
  let sheet: ExcelJS.Worksheet | undefined;
  try {
    if (lower.endsWith('.xlsx')) {
      await workbook.xlsx.load(data as unknown as ArrayBuffer);
      sheet = workbook.worksheets[0];
    } else if (lower.endsWith('.csv')) {
      // Keeps every value as typed: codes such as 0012 must not become numbers.
      sheet = await workbook.csv.read(Readable.from(data.toString('utf8').replace(/^\uFEFF/, '')), { map: (value: string) => value });
    } else {
      throw badRequest('仅支持 .xlsx 或 .csv 文件');
    }
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw badRequest('文件无法解析,请使用点位导入模板');
  }
  if (!sheet || sheet.rowCount < 1) throw badRequest('文件中没有数据');
  const columns = new Map<number, string>();
  sheet.getRow(1).eachCell((cell, index) => {
    const field = HEADERS[cellText(cell.value)];
    if (field) columns.set(index, field);
  });
  const missing = REQUIRED_COLUMNS.filter((field) => ![...columns.values()].includes(field));
  if (missing.length) throw badRequest(`缺少列: ${missing.map(columnOf).join(', ')}`);
  const rows: SheetRow[] = [];
  sheet.eachRow((row, number) => {
    if (number === 1) return;
    const cells: Record<string, string> = {};
    for (const [index, field] of columns) cells[field] = cellText(row.getCell(index).value);
    if (Object.values(cells).some((v) => v !== '')) rows.push({ row: number, cells });
  });
  if (rows.length === 0) throw badRequest('文件中没有数据');
  if (rows.length > MAX_ROWS) throw badRequest(`一次最多导入${MAX_ROWS}行`);
  return rows;
}

const optionalNumber = (text: string): number | string | undefined => (text === '' ? undefined : Number.isNaN(Number(text)) ? text : Number(text));

/** Checks every row; returns the rows to write or all the errors. */
async function checkRows(platform: Platform, ctx: CallContext, rows: SheetRow[]): Promise<{ values: Row[]; errors: SheetError[] }> {
  const tenantId = ctx.principal.tenantId;
  const codes = [...new Set(rows.map((r) => r.cells.deviceCode).filter(Boolean))];
  const devices = await platform.repo(device).all(ctx, {}, [within('code', codes), (eb) => eb('tenantId', '=', tenantId)], MAX_ROWS);
  const deviceByCode = new Map(devices.map((d) => [d.code, d.id]));
  const itemCodes = [...new Set(rows.map((r) => r.cells.factorsItemCode).filter(Boolean))];
  const items = await platform.repo(monitorFactorsItem).all(ctx, {}, [within('code', itemCodes), (eb) => eb('tenantId', '=', tenantId)]);
  const repo = platform.repo(devicePoint);
  const seen = new Map<string, number>();
  const values: Row[] = [];
  const errors: SheetError[] = [];
  for (const { row, cells } of rows) {
    const problems: string[] = [];
    const deviceId = deviceByCode.get(cells.deviceCode);
    if (!cells.deviceCode) problems.push('设备编号不能为空');
    else if (!deviceId) problems.push(`设备编号 ${cells.deviceCode} 不存在`);
    let factorsItemId: string | undefined;
    if (cells.factorsItemCode) {
      const matches = items.filter((i) => i.code === cells.factorsItemCode);
      if (matches.length === 0) problems.push(`因素项编号 ${cells.factorsItemCode} 不存在`);
      else if (matches.length > 1) problems.push(`因素项编号 ${cells.factorsItemCode} 不唯一`);
      else factorsItemId = String(matches[0].id);
    }
    const candidate = {
      deviceId: deviceId ?? '0',
      pointKey: cells.pointKey ?? '',
      name: cells.name ?? '',
      unit: cells.unit || null,
      factorsItemId: factorsItemId ?? null,
      precision: optionalNumber(cells.precision ?? ''),
      channel: optionalNumber(cells.channel ?? ''),
      sort: optionalNumber(cells.sort ?? ''),
      remark: cells.remark || null,
    };
    try {
      const parsed = repo.parse(candidate, false);
      if (deviceId) values.push({ ...parsed, row });
    } catch (error) {
      problems.push(withColumns((error as Error).message.replace(/^参数校验失败: /, '')));
    }
    const key = `${cells.deviceCode}\u0000${cells.pointKey}`;
    const first = seen.get(key);
    if (first !== undefined && cells.pointKey) problems.push(`与第${first}行的设备编号和点位标识重复`);
    else seen.set(key, row);
    if (problems.length) errors.push({ row, message: problems.join('; ') });
  }
  return { values, errors };
}

/** Inserts new points and updates existing ones (same device and key), all in one transaction. */
async function writePoints(platform: Platform, ctx: CallContext, values: Row[]): Promise<{ inserted: number; updated: number }> {
  const now = formatDateTime();
  // A device's key names one point: the one the caller's data scope hides is updated, not doubled.
  const samePoint = { wholeTenant: true } as const;
  let inserted = 0;
  let updated = 0;
  await transact(platform, async (trx) => {
    const points = platform.repo(devicePoint).within(trx);
    for (const { row: _row, ...point } of values) {
      const existing = await (await points.select(ctx, samePoint))
        .select('id')
        .where('deviceId', '=', point.deviceId as string)
        .where('pointKey', '=', point.pointKey as string)
        .executeTakeFirst();
      if (existing) {
        await points.updateWhere(ctx, point, [(eb) => eb('id', '=', existing.id as string)], samePoint);
        updated++;
      } else {
        await points.insertMany(ctx, [point], now);
        inserted++;
      }
    }
  });
  return { inserted, updated };
}

export function registerPointSheet(app: FastifyInstance, platform: Platform): void {
  app.post('/wit-xinde/devicepoint/upload', limited('import', needs('device_point_upload')), async (request, reply) => {
    const ctx = contextOf(request);
    if (!request.isMultipart()) throw badRequest('请选择要上传的文件');
    const file = await request.file();
    if (!file) throw badRequest('请选择要上传的文件');
    const rows = await readSheet(file.filename, await file.toBuffer());
    const { values, errors } = await checkRows(platform, ctx, rows);
    if (errors.length) {
      const summary = errors.slice(0, 20).map((e) => `第${e.row}行: ${e.message}`).join('; ');
      return reply.code(400).send(failure(400, `点位表有${errors.length}行错误,未导入任何数据。${summary}`, errors));
    }
    return ok({ total: values.length, ...(await writePoints(platform, ctx, values)) });
  });
}
