import { formatDateTime } from '../../../resources/datetime';
import { displayUnit, formatValue } from '../../../resources/readings';
import type { HistoryChartData, HistorySeries } from '../../../streams/history';

/**
 * Export of the series a history chart displays: one row per instant, one column per series (its unit in the
 * header), values with the point's precision (resources/readings.ts). A grouped series exports its line: the
 * average of each bucket at the bucket's start.
 */

export interface ExportTable {
  header: string[];
  /** Decimal places of each series' column (null: six significant digits). */
  precisions: Array<number | null>;
  rows: Array<{ time: number; values: Array<number | undefined> }>;
}

/** The column header of a series: its name with its unit, ℃ written °C like everywhere else. */
export function seriesHeader(s: Pick<HistorySeries, 'name' | 'unit'>): string {
  return displayUnit(s.unit && !s.name.includes(s.unit) ? `${s.name} (${s.unit})` : s.name);
}

const precisionOf = (s: HistorySeries) => (s.precision !== null && s.precision !== undefined && s.precision >= 0 && s.precision <= 6 ? s.precision : null);

export function exportTable(chart: HistoryChartData, timeHeader: string): ExportTable {
  const byTime = new Map<number, Array<number | undefined>>();
  chart.series.forEach((s, column) => {
    for (const [time, value] of s.data) {
      const row = byTime.get(time) ?? Array.from<number | undefined>({ length: chart.series.length });
      row[column] = value;
      byTime.set(time, row);
    }
  });
  return {
    header: [timeHeader, ...chart.series.map(seriesHeader)],
    precisions: chart.series.map(precisionOf),
    rows: [...byTime].sort(([a], [b]) => a - b).map(([time, values]) => ({ time, values })),
  };
}

const csvCell = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/** RFC 4180 CSV with a byte order mark, so spreadsheet programs read the Chinese headers as UTF-8. */
export function toCsv(table: ExportTable): string {
  const lines = [
    table.header.map(csvCell).join(','),
    ...table.rows.map((row) => [formatDateTime(new Date(row.time)), ...row.values.map((v, i) => (v === undefined ? '' : formatValue(v, table.precisions[i])))].map(csvCell).join(',')),
  ];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The value as the CSV shows it, kept a number (a spreadsheet computes with it). */
export const roundedValue = (value: number, precision: number | null): number => Number(formatValue(value, precision));

/** Excel's number format of a column: the point's decimals, or General. */
export const numberFormat = (precision: number | null): string => (precision === null ? 'General' : precision === 0 ? '0' : `0.${'0'.repeat(precision)}`);

/** A Date whose UTC fields are the local time of `ms`: Excel has no zones and exceljs writes dates as UTC. */
export const excelLocal = (ms: number): Date => new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);

/** The xlsx workbook of a table; exceljs (≈250 kB gzip) loads only now, never with the console's entry. */
export async function toXlsx(table: ExportTable, sheetName: string): Promise<Blob> {
  const { Workbook } = await loadExcel();
  const workbook = new Workbook();
  const sheet = workbook.addWorksheet(sheetName.replace(/[*?:\\/[\]]/g, ' ').slice(0, 31) || 'Sheet1');
  sheet.columns = table.header.map((header, i) => ({ header, width: i === 0 ? 20 : Math.max(12, header.length * 2), style: i === 0 ? { numFmt: 'yyyy-mm-dd hh:mm:ss' } : { numFmt: numberFormat(table.precisions[i - 1]) } }));
  for (const row of table.rows) sheet.addRow([excelLocal(row.time), ...row.values.map((v, i) => (v === undefined ? null : roundedValue(v, table.precisions[i])))]);
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  const buffer = await workbook.xlsx.writeBuffer();
  return new Blob([buffer], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

/** exceljs's browser build is a CommonJS bundle: its classes come as named exports or under default. */
async function loadExcel(): Promise<typeof import('exceljs')> {
  const module = (await import('exceljs')) as typeof import('exceljs') & { default?: typeof import('exceljs') };
  return module.Workbook ? module : (module.default as typeof import('exceljs'));
}

/** A file name of the chart: device code, then the displayed window. */
export function exportName(chart: HistoryChartData, extension: string): string {
  const stamp = (ms: number) => formatDateTime(new Date(ms)).replace(/[-: ]/g, '').replace(/^(\d{8})/, '$1-');
  return `${chart.code ?? 'history'}_${stamp(chart.start)}_${stamp(chart.end)}.${extension}`;
}

/** The part of a chart inside the displayed window (a bucket counts while any of it is inside). */
export function windowOf(chart: HistoryChartData, window: { start: number; end: number }): HistoryChartData {
  return {
    ...chart,
    start: window.start,
    end: window.end,
    series: chart.series.map((s) => ({ ...s, data: s.data.filter(([time]) => time + Math.max(0, s.bucketMs - 1) >= window.start && time <= window.end) })),
  };
}

/** A data: URL (ECharts' image) as a Blob. */
export function dataUrlBlob(url: string): Blob {
  const [head, body] = url.split(',', 2);
  const bytes = Uint8Array.from(atob(body), (c) => c.charCodeAt(0));
  return new Blob([bytes], { type: /^data:([^;,]+)/.exec(head)?.[1] ?? 'application/octet-stream' });
}
