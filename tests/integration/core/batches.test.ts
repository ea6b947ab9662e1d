import { expect, it } from 'vitest';
import { param } from '../../../resources/system/param';
import { principalOf } from '../../../server/auth/tokens';
import { expectOk, type PageData } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { DEMO } from '../monitoring/support';

/**
 * A batch a module inserts through the repository (`insertMany`) is split into statements both databases take:
 * SQLite binds at most 32,766 values a statement and PostgreSQL 65,535. No route writes that many yet (the largest,
 * a thousand devices, fits one), so the batch is written here as module code would, under a caller of the demo tenant.
 */

onEveryStore('batches larger than one statement', { signIn: ['demo'] }, (ctx) => {
  it('stores every row of a batch of 80,000 values, owned by the caller’s tenant', async () => {
    const verified = await ctx.server.app.platform.tokens.verify(String(ctx.demo.token), 'access_token');
    if (!('claims' in verified)) throw new Error('the demo administrator’s token does not verify');
    const caller = { principal: principalOf(verified.claims) };
    // 6,000 params of 13 columns each, with their id, tenant and audit columns: a number that divides no statement's
    // bound evenly.
    const values = Array.from({ length: 6000 }, (_, i) => ({ paramName: `批量 ${i}`, paramKey: `batch.${i}`, paramValue: String(i), remark: '批量写入' }));
    const stored = await ctx.server.app.platform.repo(param).insertMany(caller, values);
    expect(stored).toHaveLength(6000);
    expect(Object.keys(stored[0])).toHaveLength(13);

    const listed = expectOk(await ctx.demo.get<PageData>('/api/blade-system/param/list', { paramKey: 'batch.', size: 1 }));
    expect(listed.total).toBe(6000);
    const last = expectOk(await ctx.demo.get<PageData>('/api/blade-system/param/list', { paramKey_equal: 'batch.5999' })).records;
    expect(last).toEqual([expect.objectContaining({ tenantId: DEMO, paramValue: '5999' })]);
    // A batch of nothing (an import of an empty sheet) stores nothing and says so.
    expect(await ctx.server.app.platform.repo(param).insertMany(caller, [])).toEqual([]);
  });
});
