import { expect, it } from 'vitest';
import { expectOk, type PageData } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { expectEvery } from '../../support/lists';

type LogRow = Record<string, unknown> & { id: string; tenantId: string };

onEveryStore('logs and data sources', { signIn: ['admin', 'demo'] }, (ctx) => {
  const flush = () => ctx.server.app.platform.logs.flush();

  it('lists API calls per tenant; the platform administrator sees every tenant', async () => {
    expectOk(await ctx.demo.get('/api/blade-system/param/list', { paramKey: 'tenant-probe' }));
    expectOk(await ctx.admin.get('/api/blade-system/param/list', { paramKey: 'platform-probe' }));
    await flush();
    const tenantView = expectOk(await ctx.demo.get<PageData<LogRow>>('/api/blade-log/api/list', { requestUri: '/blade-system/param/list', size: 100 })).records;
    expect(tenantView.length).toBeGreaterThan(0);
    expectEvery(tenantView, (r) => r.tenantId === '100001');
    expect(tenantView.some((r) => String(r.params).includes('tenant-probe'))).toBe(true);
    expect(tenantView.some((r) => String(r.params).includes('platform-probe'))).toBe(false);
    const platformView = expectOk(await ctx.admin.get<PageData<LogRow>>('/api/blade-log/api/list', { requestUri: '/blade-system/param/list', size: 100 })).records;
    expect(new Set(platformView.map((r) => r.tenantId))).toEqual(new Set(['000000', '100001']));
    const one = platformView.find((r) => String(r.params).includes('platform-probe'))!;
    expect(expectOk(await ctx.admin.get<LogRow>('/api/blade-log/api/detail', { id: one.id }))).toMatchObject({ method: 'GET', type: '200', createBy: 'admin' });
    expect(expectOk(await ctx.demo.get('/api/blade-log/api/detail', { id: one.id }))).toBeNull();
    expect((await ctx.admin.post('/api/blade-log/api/submit', { title: 'x' })).status).toBe(404);
    expect((await ctx.admin.post('/api/blade-log/api/remove', undefined, { ids: one.id })).status).toBe(404);
  });

  it('stores the console\'s uploaded error log under the caller', async () => {
    const entries = [
      { type: 'TypeError', url: 'http://console/#/device', message: "Cannot read properties of undefined (reading 'id')", stack: 'at DeviceList (device.tsx:12)', info: 'render', time: '2026-03-01 10:20:30' },
      { type: 'error', url: 'http://console/#/wel', message: '网络异常', info: { component: 'Chart' } },
    ];
    expect(expectOk(await ctx.demo.post('/api/blade-log/error/upload', entries))).toBe(2);
    const bad: Array<[unknown, string]> = [
      [{ message: 'x' }, '请上传错误日志列表'],
      [[], '没有要上传的日志'],
      [[{ type: 'x' }], '请输入错误信息'],
      [[{ message: 'x', time: 'yesterday' }], '日期格式应为 yyyy-MM-dd HH:mm:ss'],
      // Each fault named by where it is, all of them.
      [[{ message: 'x' }, { type: 'x' }, { message: 'x', time: 'yesterday' }], '1.message: 请输入错误信息; 2.time: 日期格式应为 yyyy-MM-dd HH:mm:ss'],
      [Array.from({ length: 101 }, () => ({ message: 'x' })), '单次最多上传100条日志'],
    ];
    for (const [body, message] of bad) {
      const reply = await ctx.demo.post('/api/blade-log/error/upload', body);
      expect(reply.status).toBe(400);
      expect(reply.body.msg).toContain(message);
    }
    const mine = expectOk(await ctx.demo.get<PageData<LogRow>>('/api/blade-log/error/list', { serviceId: 'console' })).records;
    expect(mine).toHaveLength(2);
    const typeError = mine.find((r) => r.exceptionName === 'TypeError')!;
    expect(typeError).toMatchObject({ tenantId: '100001', createBy: 'admin', requestUri: 'http://console/#/device', stackTrace: 'at DeviceList (device.tsx:12)', params: 'render', createTime: '2026-03-01 10:20:30' });
    expect(mine.find((r) => r.exceptionName === 'error')?.params).toBe('{"component":"Chart"}');
    expect(expectOk(await ctx.admin.get<PageData<LogRow>>('/api/blade-log/error/list', { serviceId: 'console' })).total).toBe(2);

    expectOk(await ctx.admin.post('/api/blade-log/error/upload', [{ message: '平台错误' }]));
    expect(expectOk(await ctx.demo.get<PageData<LogRow>>('/api/blade-log/error/list', { serviceId: 'console' })).total).toBe(2);
    expectEvery(expectOk(await ctx.demo.get<PageData<LogRow>>('/api/blade-log/usual/list')).records, (r) => r.tenantId === '100001');
  });

  it('keeps data sources to the platform administrator and never returns passwords', async () => {
    const empty = await ctx.admin.post('/api/blade-develop/datasource/submit', {});
    for (const message of ['请输入名称', '请输入驱动类', '请输入连接地址', '请输入用户名']) expect(empty.body.msg).toContain(message);
    const body = { name: 'history', driverClass: 'org.postgresql.Driver', url: 'jdbc:postgresql://127.0.0.1:5432/history', username: 'reader' };
    expect((await ctx.admin.post('/api/blade-develop/datasource/submit', body)).body.msg).toContain('请输入密码');
    const saved = expectOk(await ctx.admin.post<Record<string, unknown>>('/api/blade-develop/datasource/submit', { ...body, password: 's3cret!' }));
    expect(saved).not.toHaveProperty('password');
    const listed = expectOk(await ctx.admin.get<PageData>('/api/blade-develop/datasource/list')).records;
    expect(listed.map((r) => r.name)).toEqual(['history']);
    expect(listed[0]).not.toHaveProperty('password');
    expectOk(await ctx.admin.post('/api/blade-develop/datasource/submit', { id: saved.id, username: 'writer', password: '' }));
    const stored = await ctx.server.app.platform.db.selectFrom('blade_datasource').select(['username', 'password']).where('id', '=', String(saved.id)).executeTakeFirstOrThrow();
    // Kept, and sealed at rest (docs/security.md "Secrets at rest").
    expect(stored).toEqual({ username: 'writer', password: expect.stringMatching(/^enc:v1:/) });
    expect(ctx.server.app.platform.secrets.open(String(stored.password))).toBe('s3cret!');
    expect((await ctx.admin.post('/api/blade-develop/datasource/submit', { ...body, password: 'x' })).body.msg).toBe('数据源名称已存在');

    expect((await ctx.demo.get('/api/blade-develop/datasource/list')).status).toBe(403);
    expect((await ctx.demo.post('/api/blade-develop/datasource/submit', { ...body, name: 'mine', password: 'x' })).status).toBe(403);
  });
});
