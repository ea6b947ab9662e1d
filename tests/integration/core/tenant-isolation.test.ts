import { beforeAll, expect, it } from 'vitest';
import type { Resource } from '../../../resources/define';
import { onEveryStore } from '../../support/suite';

/**
 * Walks every resource with generic routes: a second tenant's administrator can neither list, read, change nor
 * delete the first tenant's rows, cannot write shared (global) rows, and cannot touch platform configuration.
 */
onEveryStore('tenant isolation', { signIn: ['admin', 'demo'] }, (ctx) => {
  let resources: Resource[];

  beforeAll(async () => {
    resources = ctx.server.app.platform.resources;
  });

  const base = (r: Resource) => `/api${r.path ?? `/${r.service}/${r.name}`}`;

  it('has resources to walk, and every writable one declares an example body', () => {
    expect(resources.length).toBeGreaterThan(0);
    const missing = resources.filter((r) => !r.readOnly && !r.example).map((r) => r.key);
    expect(missing).toEqual([]);
  });

  it('keeps tenant rows in their tenant', async () => {
    for (const resource of resources.filter((r) => r.tenancy === 'tenant' && !r.readOnly)) {
      const created = await ctx.admin.post<{ id: string }>(`${base(resource)}/submit`, resource.example);
      expect(created.body.code, `${resource.key} example should save: ${created.body.msg}`).toBe(200);
      const id = created.body.data.id;

      const listed = await ctx.demo.get<{ total: number }>(`${base(resource)}/list`, { id_equal: id });
      expect(listed.body.data.total, `${resource.key} list`).toBe(0);
      const read = await ctx.demo.get(`${base(resource)}/detail`, { id });
      expect(read.body.data, `${resource.key} detail`).toBeNull();
      const changed = await ctx.demo.post(`${base(resource)}/submit`, { ...resource.example, id });
      expect(changed.body.success, `${resource.key} submit`).toBe(false);
      const removed = await ctx.demo.request('POST', `${base(resource)}/remove`, { query: { ids: id } });
      expect((removed.body as { success: boolean }).success, `${resource.key} remove`).toBe(false);

      const still = await ctx.admin.get<Record<string, unknown> | null>(`${base(resource)}/detail`, { id });
      expect(still.body.data?.id, `${resource.key} still there`).toBe(id);
      expect(still.body.data?.isDeleted).toBe(0);
    }
  });

  it('never puts a row in another tenant or under another author, by insert or by update', async () => {
    const foreign = { tenantId: '000000', createUser: '1', createDept: '1', createTime: '2000-01-01 00:00:00', isDeleted: 1 };
    let walked = 0;
    for (const resource of resources.filter((r) => r.tenancy === 'tenant' && !r.readOnly)) {
      // The examples name the platform tenant's rows; those that save for tenant 100001 as they are get walked.
      const created = await ctx.demo.post<{ id: string }>(`${base(resource)}/submit`, { ...resource.example, ...foreign });
      if (created.body.code !== 200) continue;
      const id = created.body.data.id;
      const before = (await ctx.admin.get<Record<string, unknown>>(`${base(resource)}/detail`, { id })).body.data;
      expect(before, resource.key).toMatchObject({ tenantId: '100001', isDeleted: 0 });
      expect([before.createUser, before.createDept, before.createTime], resource.key).not.toContain(foreign.createUser);
      expect(before.createTime, resource.key).not.toBe(foreign.createTime);
      const moved = await ctx.demo.post(`${base(resource)}/submit`, { ...resource.example, id, ...foreign });
      expect(moved.status, `${resource.key} update: ${JSON.stringify(moved.body)}`).toBeLessThan(500);
      const after = (await ctx.admin.get<Record<string, unknown>>(`${base(resource)}/detail`, { id })).body.data;
      expect(after, resource.key).toMatchObject({ tenantId: '100001', createUser: before.createUser, createDept: before.createDept, createTime: before.createTime, isDeleted: 0 });
      walked += 1;
    }
    expect(walked).toBeGreaterThan(10);
  });

  it('keeps read-only tenant rows (logs) in their tenant', async () => {
    await ctx.server.app.platform.logs.flush();
    // Lists the tenant has no rows in prove nothing: those that have some are counted.
    let walked = 0;
    for (const resource of resources.filter((r) => r.tenancy === 'tenant' && r.readOnly)) {
      const mine = await ctx.admin.get<{ records: Array<{ id: string; tenantId: string }> }>(`${base(resource)}/list`, { tenantId_equal: '000000', size: 5 });
      for (const row of mine.body.data.records) {
        const read = await ctx.demo.get(`${base(resource)}/detail`, { id: row.id });
        expect(read.body.data, `${resource.key} detail`).toBeNull();
      }
      const theirs = await ctx.demo.get<{ records: Array<{ tenantId: string }> }>(`${base(resource)}/list`, { size: 200 });
      const records = theirs.body.data.records;
      if (records.length > 0) walked += 1;
      expect(records.filter((r) => r.tenantId !== '100001'), resource.key).toEqual([]);
    }
    expect(walked).toBeGreaterThan(0);
  });

  it('lets only the platform administrator write shared rows', async () => {
    let written = 0;
    for (const resource of resources.filter((r) => r.tenancy === 'global' && !r.readOnly)) {
      const denied = await ctx.demo.post(`${base(resource)}/submit`, resource.example);
      expect(denied.status, `${resource.key} submit by a tenant`).toBe(403);
      // A shared row has no tenant: one named in the body is not taken for a column.
      const shared = await ctx.admin.post<{ id: string }>(`${base(resource)}/submit`, { ...resource.example, tenantId: '100001' });
      expect(shared.status, `${resource.key} submit naming a tenant: ${JSON.stringify(shared.body)}`).toBeLessThan(500);
      if (shared.body.code === 200) written += 1;
      // Their screens are the platform's (not in a tenant's package): tenants read them through the shell's own
      // calls (dictionaries, menu routes, region pickers), not through their management lists.
      const listed = await ctx.demo.get(`${base(resource)}/list`);
      expect(listed.body.code, `${resource.key} list by a tenant`).toBe(403);
    }
    expect(written).toBeGreaterThan(0);
  });

  it('hides platform configuration from tenants', async () => {
    for (const resource of resources.filter((r) => r.tenancy === 'platform')) {
      expect((await ctx.demo.get(`${base(resource)}/list`)).status, `${resource.key} list`).toBe(403);
      if (!resource.readOnly) expect((await ctx.demo.post(`${base(resource)}/submit`, resource.example)).status, `${resource.key} submit`).toBe(403);
    }
  });
});
