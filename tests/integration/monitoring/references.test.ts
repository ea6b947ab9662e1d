import { expect, it } from 'vitest';
import { expectOk, expectRefused, type PageData, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { DEMO, demoId, submit, X } from './support';

/** The references resources declare (docs/resources.md "References"), applied by the CRUD builder to every resource. */
onEveryStore('declared references', { signIn: ['demo', 'admin'] }, (ctx) => {
  const remove = (resource: string, ids: string) => ctx.demo.request('POST', `${X}/${resource}/remove`, { query: { ids } }) as never;

  it('refuses a reference to another tenant row, even when the platform administrator writes it for a tenant', async () => {
    const foreign = await submit(ctx.admin, 'monitortype', { name: '平台类型', code: 'platform_type' });
    expectRefused(await ctx.demo.post(`${X}/monitorfactors/submit`, { name: '跨租户', code: 'cross_tenant', monitorTypeId: foreign.id }), '监测类型不存在');
    // The administrator sees both tenants, but a demo row may only name demo rows.
    expectRefused(await ctx.admin.post(`${X}/monitorfactors/submit`, { tenantId: DEMO, name: '跨租户', code: 'cross_tenant', monitorTypeId: foreign.id }), '监测类型不存在');
    expectRefused(await ctx.demo.post(`${X}/monitorfactors/submit`, { name: '不存在', code: 'dangling', monitorTypeId: '123456789' }), '监测类型不存在');
  });

  it('names the referenced rows on list and detail', async () => {
    const type = await submit(ctx.demo, 'monitortype', { name: '名称类型', code: 'named_type' });
    const factor = await submit(ctx.demo, 'monitorfactors', { name: '名称因素', code: 'named_factor', monitorTypeId: type.id });
    const listed = expectOk(await ctx.demo.get<PageData>(`${X}/monitorfactors/list`, { code: 'named_factor' }));
    expect(listed.records).toEqual([expect.objectContaining({ id: factor.id, monitorTypeName: '名称类型' })]);
    expect(expectOk(await ctx.demo.get<Row>(`${X}/monitorfactors/detail`, { id: factor.id })).monitorTypeName).toBe('名称类型');
    const unnamed = await submit(ctx.demo, 'monitorfactors', { name: '无类型', code: 'no_type' });
    expect(expectOk(await ctx.demo.get<Row>(`${X}/monitorfactors/detail`, { id: unnamed.id })).monitorTypeName).toBeNull();
  });

  it('refuses removing a row a live row still names, leaving it in place, and frees it once that row is gone', async () => {
    const type = await submit(ctx.demo, 'monitortype', { name: '在用类型', code: 'used_type' });
    const factor = await submit(ctx.demo, 'monitorfactors', { name: '在用因素', code: 'used_factor', monitorTypeId: type.id });
    expectRefused(await remove('monitortype', type.id), '监测类型已被使用,不能删除');
    expect(expectOk(await ctx.demo.get<Row>(`${X}/monitortype/detail`, { id: type.id }))).toMatchObject({ id: type.id, name: '在用类型' });
    expectOk(await remove('monitorfactors', factor.id));
    expect(expectOk(await remove('monitortype', type.id))).toBe(true);
    expect(expectOk(await ctx.demo.get<Row | null>(`${X}/monitortype/detail`, { id: type.id }))).toBeNull();
  });

  it('lets a reference that does not hold leave the named row removable', async () => {
    // Report items name a monitor type without keeping it (holds: false).
    const type = await submit(ctx.demo, 'monitortype', { name: '报表类型', code: 'report_type' });
    await submit(ctx.demo, 'monitoritem', { name: '报表项', code: 'report_item', monitorTypeId: type.id });
    expect(expectOk(await remove('monitortype', type.id))).toBe(true);
  });

  it('checks a reference new with the declarations: a manual alarm naming another tenant project is refused', async () => {
    // Before the declarations a manual alarm's projectId was ignored (taken from the device); now it is checked.
    const foreign = await submit(ctx.admin, 'project', { name: '平台项目', code: 'PLATFORM-REF' });
    expectRefused(await ctx.demo.post(`${X}/alarm/submit`, { deviceId: demoId('device:QJ-GNSS-01'), alarmLevel: 3, projectId: foreign.id }), '项目不存在或无权操作');
  });
});
