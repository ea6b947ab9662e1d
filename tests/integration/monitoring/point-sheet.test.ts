import ExcelJS from 'exceljs';
import { expect, it } from 'vitest';
import type { ApiClient, Envelope } from '../../support/client';
import { expectOk, type PageData } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { demoId, X } from './support';

const HEADER = ['设备编号', '点位标识', '点位名称', '单位', '因素项编号', '精度', '通道', '备注'];

async function xlsx(rows: unknown[][]): Promise<Blob> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('点位');
  sheet.addRow(HEADER);
  for (const row of rows) sheet.addRow(row);
  return new Blob([await workbook.xlsx.writeBuffer()], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
}

async function upload(api: ApiClient, file: Blob, name: string) {
  const form = new FormData();
  form.append('file', file, name);
  return api.request<Envelope<unknown>>('POST', `${X}/devicepoint/upload`, { raw: form });
}

onEveryStore('device point sheet upload', { signIn: ['demo'] }, (ctx) => {
  const pointsOf = async (code: string) =>
    (await ctx.server.app.platform.db.selectFrom('wit_device_point').selectAll().where('deviceId', '=', demoId(`device:${code}`)).where('isDeleted', '=', 0).orderBy('pointKey').execute()) as Array<Record<string, unknown>>;

  it('imports a good .xlsx sheet: new points inserted, existing ones updated', async () => {
    const file = await xlsx([
      ['QJ-TILT-01', 'temperature', '温度', '℃', 'temperature_raw', 1, 3, '内置温度'],
      ['QJ-TILT-01', 'tilt_x', 'X向倾角(修)', '°', 'tilt_raw', 3, 1, ''],
      [],
      ['QJ-RAIN-01', 'battery', '电池电压', 'V', '', 2, 2, ''],
    ]);
    const reply = await upload(ctx.demo, file, '点位表.xlsx');
    expect(expectOk(reply)).toEqual({ total: 3, inserted: 2, updated: 1 });
    const tilt = await pointsOf('QJ-TILT-01');
    expect(tilt.map((p) => [p.pointKey, p.name, p.precision])).toEqual([['temperature', '温度', 1], ['tilt_x', 'X向倾角(修)', 3], ['tilt_y', 'Y向倾角', 4]]);
    expect(tilt[0].factorsItemId).toBe(demoId('fi:temperature_raw'));
    const listed = expectOk(await ctx.demo.get<PageData>(`${X}/devicepoint/list`, { deviceId: demoId('device:QJ-RAIN-01') }));
    expect(listed.total).toBe(2);
  });

  it('imports a .csv sheet, keeping codes as typed', async () => {
    const csv = `\uFEFF${HEADER.join(',')}\nQJ-TH-01,dew_point,"露点, 计算",℃,,1,3,\n`;
    expect(expectOk(await upload(ctx.demo, new Blob([csv], { type: 'text/csv' }), 'points.csv'))).toEqual({ total: 1, inserted: 1, updated: 0 });
    expect((await pointsOf('QJ-TH-01')).find((p) => p.pointKey === 'dew_point')?.name).toBe('露点, 计算');
  });

  it('refuses a sheet with bad rows, naming each row, and writes nothing', async () => {
    const before = await pointsOf('QJ-HLS-01');
    const file = await xlsx([
      ['QJ-HLS-01', 'temperature', '温度', '℃', '', 1, 2, ''],
      ['NO-SUCH-DEVICE', 'x', '不存在的设备', '', '', '', '', ''],
      ['QJ-HLS-01', '9bad', '坏标识', '', '', '', '', ''],
      ['QJ-HLS-01', 'humidity', '', '', 'no_such_item', 9, '', ''],
      ['QJ-HLS-01', 'temperature', '重复', '', '', '', '', ''],
      ['BENCH-TILT-01', 'x', '别的租户的设备', '', '', '', '', ''],
    ]);
    const reply = await upload(ctx.demo, file, 'bad.xlsx');
    expect(reply.status).toBe(400);
    expect(reply.body.success).toBe(false);
    expect(reply.body.msg).toContain('点位表有5行错误,未导入任何数据');
    const errors = reply.body.data as Array<{ row: number; message: string }>;
    expect(errors.map((e) => e.row)).toEqual([3, 4, 5, 6, 7]);
    expect(errors[0].message).toContain('设备编号 NO-SUCH-DEVICE 不存在');
    expect(errors[1].message).toContain('点位标识以字母开头');
    // A field's problem names its column as the sheet heads it, not the field.
    expect(errors[1].message).toMatch(/^点位标识: /);
    expect(errors[2].message).toContain('因素项编号 no_such_item 不存在');
    expect(errors[2].message).toContain('请输入点位名称');
    expect(errors[2].message).toContain('精度应在 0 到 6 之间');
    expect(errors[3].message).toContain('与第2行的设备编号和点位标识重复');
    expect(errors[4].message).toContain('设备编号 BENCH-TILT-01 不存在');
    expect(await pointsOf('QJ-HLS-01')).toEqual(before);
  });

  it('refuses files that are not point sheets', async () => {
    const wrongType = await upload(ctx.demo, new Blob(['hello'], { type: 'text/plain' }), 'notes.txt');
    expect(wrongType.body.msg).toBe('仅支持 .xlsx 或 .csv 文件');
    const noColumns = await upload(ctx.demo, new Blob(['a,b\n1,2\n'], { type: 'text/csv' }), 'x.csv');
    expect(noColumns.body.msg).toBe('缺少列: 设备编号, 点位标识, 点位名称');
    const broken = await upload(ctx.demo, new Blob(['not a zip'], { type: 'application/octet-stream' }), 'broken.xlsx');
    expect(broken.body.msg).toBe('文件无法解析,请使用点位导入模板');
    const empty = await upload(ctx.demo, await xlsx([]), 'empty.xlsx');
    expect(empty.body.msg).toBe('文件中没有数据');
    const none = await ctx.demo.request<Envelope<unknown>>('POST', `${X}/devicepoint/upload`, { json: {} });
    expect(none.body.msg).toBe('请选择要上传的文件');
  });
});
