// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../server/http/envelope';
import { cellOf, checkColumns, exportFileName, exportRequest, pagedRows, parseColumns, parseLabels } from '../../server/http/export';
import { columnsParam } from '../../src/crud/exportList';

const refusal = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return (error as ApiError).message;
  }
  throw new Error('expected a refusal');
};

describe('export columns (server/http/export.ts)', () => {
  it('reads field:title pairs; a bare field is its own title; empty entries are dropped', () => {
    // Entries of spaces alone are empty too.
    expect(parseColumns('code:设备编号,name:设备名称,, ,online')).toEqual([
      { field: 'code', title: '设备编号' },
      { field: 'name', title: '设备名称' },
      { field: 'online', title: 'online' },
    ]);
  });

  it('keeps colons in titles and takes escaped commas and backslashes as they are', () => {
    expect(parseColumns('time:Time (hh:mm),name:Name\\, full,path:a\\\\b')).toEqual([
      { field: 'time', title: 'Time (hh:mm)' },
      { field: 'name', title: 'Name, full' },
      { field: 'path', title: 'a\\b' },
    ]);
    // A backslash at the very end escapes nothing: it stays.
    expect(parseColumns('name:Name\\')).toEqual([{ field: 'name', title: 'Name\\' }]);
  });

  it('reads back what the console sends, whatever the titles hold', () => {
    const columns = [
      { field: 'code', title: 'Code, short' },
      { field: 'remark', title: 'Notes \\ remarks: free text' },
      { field: 'name', title: '名称' },
    ];
    expect(parseColumns(columnsParam(columns))).toEqual(columns);
  });

  it('takes up to 200 columns and fields of up to 64 characters; an empty title is the field; long titles are cut', () => {
    expect(parseColumns(Array.from({ length: 200 }, (_, i) => `f${i}`).join(','))).toHaveLength(200);
    const longest = `a${'b'.repeat(63)}`;
    expect(parseColumns(longest)).toEqual([{ field: longest, title: longest }]);
    expect(refusal(() => parseColumns(`${longest}c`))).toBe(`导出列格式错误: ${longest}c`);
    expect(parseColumns(' code : 编号 ,name:')).toEqual([
      { field: 'code', title: '编号' },
      { field: 'name', title: 'name' },
    ]);
    expect(parseColumns(`code:${'长'.repeat(120)}`)[0].title).toBe('长'.repeat(100));
    // The refusal quotes the entry, cut short.
    expect(refusal(() => parseColumns(`bad field:${'x'.repeat(100)}`))).toBe(`导出列格式错误: ${`bad field:${'x'.repeat(100)}`.slice(0, 80)}`);
  });

  it('refuses no columns, malformed fields and too many columns', () => {
    expect(refusal(() => parseColumns(''))).toBe('请选择要导出的列');
    expect(refusal(() => parseColumns(undefined))).toBe('请选择要导出的列');
    expect(refusal(() => parseColumns('code;drop:x'))).toBe('导出列格式错误: code;drop:x');
    expect(refusal(() => parseColumns('1code:x'))).toBe('导出列格式错误: 1code:x');
    expect(refusal(() => parseColumns(Array.from({ length: 201 }, (_, i) => `f${i}`).join(',')))).toBe('导出的列不能超过 200 个');
  });

  it('refuses hidden fields by name and fields the list does not have', () => {
    const exportable = new Set(['account', 'name']);
    expect(refusal(() => checkColumns(parseColumns('account,password'), exportable, ['password']))).toBe('字段 password 不能导出');
    expect(refusal(() => checkColumns(parseColumns('account,nope'), exportable))).toBe('导出字段 nope 不存在');
    expect(() => checkColumns(parseColumns('account:账号,name:姓名'), exportable)).not.toThrow();
  });

  it('takes labels for exported fields only, and refuses malformed ones', () => {
    const columns = parseColumns('online,code');
    const labels = parseLabels('{"online":{"1":"在线","0":"离线"},"other":{"1":"x"}}', columns);
    expect([...labels.keys()]).toEqual(['online']);
    expect(labels.get('online')?.get('0')).toBe('离线');
    expect(refusal(() => parseLabels('{"online":[1]}', columns))).toBe('导出的取值标签格式错误');
    expect(refusal(() => parseLabels('not json', columns))).toBe('导出的取值标签格式错误');
  });

  it('leaves the list query its filters and sorting, without the export parameters', () => {
    const { spec, query } = exportRequest({ columns: 'code', exportName: '设备列表', code: 'QJ', descs: 'code', current: '3', size: '10' }, new Set(['code']), [], 'device');
    expect(query).toEqual({ code: 'QJ', descs: 'code' });
    expect(spec.name).toBe('设备列表');
    expect(exportRequest({ columns: 'code' }, new Set(['code']), [], 'device').spec.name).toBe('device');
  });

  it('writes cells as the list shows them and names the file after the screen and the time', () => {
    const labels = new Map([['1', '在线']]);
    expect([cellOf(1, labels), cellOf(0, labels), cellOf(null), cellOf('2026-03-01 08:00:00'), cellOf(true), cellOf({ a: 1 })]).toEqual([
      '在线', 0, null, '2026-03-01 08:00:00', 1, '{"a":1}',
    ]);
    expect(cellOf(new Date(2026, 2, 1, 8, 5, 9))).toBe('2026-03-01 08:05:09');
    expect([cellOf(undefined), cellOf(false), cellOf(12n), cellOf(2.5), cellOf([1, 'a'])]).toEqual([null, 0, '12', 2.5, '[1,"a"]']);
    // Labels are looked up by the stored value's text, whatever its type.
    expect(cellOf('1', labels)).toBe('在线');
    expect(exportFileName('设备列表', new Date(2026, 2, 1, 8, 5, 9))).toBe('设备列表-20260301-080509.xlsx');
    expect(exportFileName('a/b:c*?', new Date(2026, 2, 1, 8, 5, 9))).toBe('abc-20260301-080509.xlsx');
    expect(exportFileName('', new Date(2026, 2, 1, 8, 5, 9))).toBe('export-20260301-080509.xlsx');
    // Control characters and the edges' spaces go; the name is cut at 60 characters; nothing left is `export`.
    expect(exportFileName(' 设备\u0000列表\n ', new Date(2026, 11, 31, 23, 59, 58))).toBe('设备列表-20261231-235958.xlsx');
    expect(exportFileName('名'.repeat(70), new Date(2026, 2, 1, 8, 5, 9))).toBe(`${'名'.repeat(60)}-20260301-080509.xlsx`);
    expect(exportFileName(' /:* ', new Date(2026, 2, 1, 8, 5, 9))).toBe('export-20260301-080509.xlsx');
  });

  it('reads a list for export a page at a time, up to the limit, and refuses a longer one before reading on', async () => {
    const rows = Array.from({ length: 7 }, (_, i) => ({ id: String(i + 1) }));
    const asked: number[] = [];
    const read = async (current: number, size: number) => {
      asked.push(current);
      return { records: rows.slice((current - 1) * size, current * size), total: rows.length };
    };
    const all = async (limits: { maxRows: number; pageSize: number }) => {
      const { total, pages } = await pagedRows(read, limits);
      const got: string[][] = [];
      for await (const page of pages) got.push(page.map((row) => String(row.id)));
      return { total, pages: got };
    };
    expect(await all({ maxRows: 10, pageSize: 3 })).toEqual({ total: 7, pages: [['1', '2', '3'], ['4', '5', '6'], ['7']] });
    expect(asked).toEqual([1, 2, 3]);
    // A last page as long as the others takes one more read, which comes back empty.
    asked.length = 0;
    expect(await all({ maxRows: 10, pageSize: 7 })).toEqual({ total: 7, pages: [['1', '2', '3', '4', '5', '6', '7']] });
    expect(asked).toEqual([1, 2]);
    // Exactly at the limit: every row, and no read past it.
    asked.length = 0;
    expect(await all({ maxRows: 7, pageSize: 3 })).toEqual({ total: 7, pages: [['1', '2', '3'], ['4', '5', '6'], ['7']] });
    expect(asked).toEqual([1, 2, 3]);
    // Full pages up to the limit: no read after the page that reaches it.
    asked.length = 0;
    const six = async (current: number, size: number) => {
      asked.push(current);
      return { records: rows.slice(0, 6).slice((current - 1) * size, current * size), total: 6 };
    };
    const got: string[] = [];
    for await (const page of (await pagedRows(six, { maxRows: 6, pageSize: 3 })).pages) got.push(...page.map((row) => String(row.id)));
    expect(got).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(asked).toEqual([1, 2]);
    asked.length = 0;
    await expect(pagedRows(read, { maxRows: 6, pageSize: 3 })).rejects.toThrow('共 7 条数据,超过导出上限 6 条,请缩小查询范围');
    expect(asked).toEqual([1]);
  });

  it('stops at the limit when the list grows while it is read', async () => {
    let length = 5;
    const read = async (current: number, size: number) => {
      const rows = Array.from({ length }, (_, i) => ({ id: String(i + 1) }));
      length += 4;
      return { records: rows.slice((current - 1) * size, current * size), total: rows.length };
    };
    const { total, pages } = await pagedRows(read, { maxRows: 6, pageSize: 4 });
    const ids: string[] = [];
    for await (const page of pages) ids.push(...page.map((row) => String(row.id)));
    expect(total).toBe(5);
    expect(ids).toEqual(['1', '2', '3', '4', '5', '6']);
  });
});
