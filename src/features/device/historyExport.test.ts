import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import type { HistoryChartData } from '../../../streams/history';
import { dataUrlBlob, excelLocal, exportName, exportTable, numberFormat, seriesHeader, toCsv, toXlsx, windowOf } from './historyExport';

const t0 = new Date(2026, 0, 2, 8, 0, 0).getTime();
const chart: HistoryChartData = {
  code: 'QJ-CRACK-01',
  start: t0,
  end: t0 + 3_600_000,
  legend: [],
  series: [
    { pointKey: 'crack', name: '裂缝宽度 (mm)', unit: 'mm', precision: 3, deviceCode: 'C', bucketMs: 0, count: 2, data: [[t0, 0.36434999999999995], [t0 + 60_000, 2]] },
    { pointKey: 'temperature', name: '温度, 表面', unit: '℃', deviceCode: 'C', bucketMs: 0, count: 2, data: [[t0 + 60_000, 20.123456789], [t0 + 120_000, 21]] },
  ],
};

describe('history export', () => {
  it('heads each series with its unit, ℃ as °C', () => {
    expect(seriesHeader({ name: '裂缝宽度 (mm)', unit: 'mm' })).toBe('裂缝宽度 (mm)');
    expect(seriesHeader({ name: '温度', unit: '℃' })).toBe('温度 (°C)');
    expect(seriesHeader({ name: 'x', unit: null })).toBe('x');
  });

  it('joins the series on their instants, sorted', () => {
    const table = exportTable(chart, '时间');
    expect(table.header).toEqual(['时间', '裂缝宽度 (mm)', '温度, 表面 (°C)']);
    expect(table.precisions).toEqual([3, null]);
    expect(table.rows.map((r) => [r.time - t0, r.values])).toEqual([
      [0, [0.36434999999999995, undefined]],
      [60_000, [2, 20.123456789]],
      [120_000, [undefined, 21]],
    ]);
  });

  it('writes CSV: time as yyyy-MM-dd HH:mm:ss, values with the precision, quoted where needed, BOM and CRLF', () => {
    const csv = toCsv(exportTable(chart, '时间'));
    expect(csv.startsWith('\uFEFF')).toBe(true);
    expect(csv.slice(1).split('\r\n')).toEqual([
      '时间,裂缝宽度 (mm),"温度, 表面 (°C)"',
      '2026-01-02 08:00:00,0.364,',
      '2026-01-02 08:01:00,2.000,20.1235',
      '2026-01-02 08:02:00,,21',
      '',
    ]);
  });

  it('writes xlsx: local times as dates, rounded numbers in the precision format', async () => {
    const blob = await toXlsx(exportTable(chart, '时间'), 'QJ-CRACK-01 历史');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await blob.arrayBuffer());
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, '时间', '裂缝宽度 (mm)', '温度, 表面 (°C)']);
    const row = sheet.getRow(3);
    expect(row.getCell(1).value).toEqual(excelLocal(t0 + 60_000));
    expect(row.getCell(2).value).toBe(2);
    expect(row.getCell(2).numFmt).toBe('0.000');
    expect(row.getCell(3).value).toBe(20.1235);
    expect(sheet.getRow(2).getCell(3).value).toBeNull();
    expect(numberFormat(0)).toBe('0');
    expect(numberFormat(null)).toBe('General');
  });

  it('names the file by device code and window', () => {
    expect(exportName(chart, 'csv')).toBe('QJ-CRACK-01_20260102-080000_20260102-090000.csv');
  });

  it('keeps the displayed window: points inside it, and a bucket reaching into it', () => {
    const bucketed: HistoryChartData = { start: 0, end: 100, legend: [], series: [{ pointKey: 'k', name: 'k', unit: null, deviceCode: 'D', bucketMs: 10, count: 9, data: [[0, 1], [10, 2], [20, 3], [30, 4]] }] };
    const shown = windowOf(bucketed, { start: 15, end: 25 });
    expect(shown.series[0].data).toEqual([[10, 2], [20, 3]]);
    expect([shown.start, shown.end]).toEqual([15, 25]);
  });

  it('turns a data URL into a blob of its type', async () => {
    const blob = dataUrlBlob(`data:image/png;base64,${btoa('\x89PNG')}`);
    expect(blob.type).toBe('image/png');
    expect(new Uint8Array(await blob.arrayBuffer())).toEqual(new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
  });
});
