import type { App } from '../../../server/app';
import { needs } from '../../../server/auth/rights';
import { SECRET_MASK } from '../../../resources/define';
import { seedId } from '../../../server/db/seed/ids';
import { expect, it } from 'vitest';
import { ApiClient } from '../../support/client';
import { onEveryStore } from '../../support/suite';
import { expectOk, expectRefusedExactly } from '../../support/envelope';

const PARAMS = '/api/blade-system/param';

/** A route that fails with internals in its error, to see them kept out of the reply. */
const boom = ({ app }: App) => {
  app.get('/blade-test/boom', needs.self, async () => {
    throw new Error('secret internals at /work/main/server');
  });
  app.get('/blade-test/boom-public', needs.public, async () => {
    throw new Error('public internals');
  });
};

onEveryStore('bad input', { signIn: ['admin', 'demo'], prepare: boom, config: { uploadLimit: 64 * 1024 } }, (ctx) => {
  const count = async () => (await ctx.admin.get<{ total: number }>(`${PARAMS}/list`)).body.data.total;

  it('answers unknown routes and wrong methods with the envelope', async () => {
    const unknown = await ctx.admin.get('/api/blade-system/nothing/here');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ code: 404, success: false, data: null, msg: '404 没找到请求' });
    // A list variant the resource does not declare (params have no `page`) is no route.
    expect((await ctx.admin.get(`${PARAMS}/page`)).status).toBe(404);
    const method = await ctx.admin.get(`${PARAMS}/submit`);
    expect(method.status).toBe(405);
    expect(method.body.msg).toBe('不支持当前请求方法');
  });

  it('answers a path that is not valid percent-encoding, or a path parameter over the router’s limit, in the envelope', async () => {
    const url = (path: string) => new URL(path, ctx.admin.baseUrl);
    const malformed = await fetch(url('/api/blade-system/%E0%A4%A/list'), { headers: ctx.admin.headers() });
    expect([malformed.status, await malformed.json()]).toEqual([400, { code: 400, success: false, data: null, msg: '请求地址格式错误' }]);
    const english = await fetch(url('/api/blade-system/%E0%A4%A/list'), { headers: ctx.admin.headers({ 'accept-language': 'en' }) });
    expect((await english.json()).msg).toBe('Malformed request address');
    // A stored file's name is a path parameter: over 100 characters the router refuses it before any route runs.
    const long = await fetch(url(`/api/blade-resource/oss/endpoint/file/000000/20260101/${'f'.repeat(150)}.png`));
    expect([long.status, await long.json()]).toEqual([414, { code: 414, success: false, data: null, msg: '请求地址格式错误' }]);
  });

  it('refuses malformed bodies with a clear message and writes nothing', async () => {
    const before = await count();
    const malformed = await ctx.admin.request('POST', `${PARAMS}/submit`, { raw: '{"paramName": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ code: 400, success: false, msg: '参数校验失败: 请求体不是合法的 JSON' });
    const array = await ctx.admin.post(`${PARAMS}/submit`, [1, 2]);
    expect(array.body.msg).toBe('参数校验失败: 请求体应为 JSON 对象');
    const media = await ctx.admin.request('POST', `${PARAMS}/submit`, { raw: '<x/>', headers: { 'content-type': 'application/xml' } });
    expect(media.status).toBe(415);
    expect((media.body as { msg: string }).msg).toBe('不支持当前媒体类型');
    const types = await ctx.admin.post(`${PARAMS}/submit`, { paramName: 123, paramKey: ['a'], paramValue: 'v' });
    expect(types.status).toBe(400);
    expect(types.body.msg).toMatch(/^参数校验失败: paramName: .*; paramKey: /);
    const empty = await ctx.admin.request('POST', `${PARAMS}/submit`, { raw: '', headers: { 'content-type': 'application/json' } });
    expect([empty.status, empty.body]).toMatchObject([400, { code: 400, success: false, msg: '参数校验失败: 请求体不是合法的 JSON' }]);
    const huge = await ctx.admin.post(`${PARAMS}/submit`, { paramName: 'x', paramKey: 'big', paramValue: 'x'.repeat(3 * 1024 * 1024) });
    expect([huge.status, huge.body]).toMatchObject([413, { code: 413, success: false, msg: '上传文件过大' }]);
    // `save` only adds and `update` only edits; an empty id is no id.
    const body = { paramName: '模式', paramKey: 'mode.check', paramValue: 'v' };
    expect((await ctx.admin.post(`${PARAMS}/save`, { ...body, id: '42' })).body.msg).toBe('新增数据不能带编号');
    expect((await ctx.admin.post(`${PARAMS}/update`, body)).body.msg).toBe('修改数据必须带编号');
    expect(await count()).toBe(before);
    expect((await ctx.admin.post(`${PARAMS}/save`, { ...body, id: '' })).body.code).toBe(200);
    expect(await count()).toBe(before + 1);
    // Nor is a null id; an id that names no row is refused, not added.
    expectOk(await ctx.admin.post(`${PARAMS}/submit`, { ...body, paramKey: 'mode.null', id: null }));
    expect(await count()).toBe(before + 2);
    expectRefusedExactly(await ctx.admin.post(`${PARAMS}/submit`, { ...body, paramKey: 'mode.ghost', id: '1999999999999999999' }), '数据不存在或无权操作');
    expectRefusedExactly(await ctx.admin.request('POST', `${PARAMS}/remove`, { query: { ids: '1999999999999999999' } }), '数据不存在或无权操作');
    expect(await count()).toBe(before + 2);
  });

  it('refuses an upload that is not multipart, and more files than one upload takes', async () => {
    const json = await ctx.admin.post('/api/blade-resource/oss/endpoint/put-file', { file: 'x' });
    expect([json.status, json.body]).toMatchObject([415, { code: 415, success: false, msg: '不支持当前媒体类型' }]);
    const form = new FormData();
    for (let i = 0; i < 11; i++) form.append('file', new Blob(['<definitions/>']), `p${i}.bpmn`);
    const many = await ctx.admin.request('POST', '/api/blade-flow/manager/deploy-upload', { raw: form });
    expect([many.status, many.body]).toMatchObject([413, { code: 413, success: false, msg: '上传文件过大' }]);
    // A file over UPLOAD_LIMIT (64 KB here), and more parts than a form may have (1000).
    const big = new FormData();
    big.append('file', new Blob(['x'.repeat(100 * 1024)]), 'big.bpmn');
    const large = await ctx.admin.request('POST', '/api/blade-flow/manager/deploy-upload', { raw: big });
    expect([large.status, large.body]).toMatchObject([413, { code: 413, success: false, msg: '上传文件过大' }]);
    const fields = new FormData();
    for (let i = 0; i < 1001; i++) fields.append(`f${i}`, 'x');
    const parts = await ctx.admin.request('POST', '/api/blade-flow/manager/deploy-upload', { raw: fields });
    expect([parts.status, parts.body]).toMatchObject([413, { code: 413, success: false, msg: '上传文件过大' }]);
    // Any other refusal of the upload's parser keeps its status and takes our words.
    const poisoned = new FormData();
    poisoned.append('__proto__', 'x');
    const proto = await ctx.admin.request('POST', '/api/blade-flow/manager/deploy-upload', { raw: poisoned });
    expect([proto.status, proto.body]).toEqual([400, { code: 400, success: false, data: null, msg: '参数校验失败' }]);
  });

  it('refuses missing and mistyped parameters', async () => {
    const noIds = await ctx.admin.post(`${PARAMS}/remove`);
    expect(noIds.body).toMatchObject({ code: 400, msg: '缺少必要的请求参数: ids' });
    const page = await ctx.admin.get(`${PARAMS}/list`, { current: 'abc' });
    expect(page.body).toMatchObject({ code: 400, msg: '请求参数类型错误: current' });
    const status = await ctx.admin.get(`${PARAMS}/list`, { status_equal: 'one' });
    expect(status.body.msg).toBe('请求参数类型错误: status_equal');
    const infinite = await ctx.admin.get(`${PARAMS}/list`, { status_ge: 'Infinity' });
    expect(infinite.body.msg).toBe('请求参数类型错误: status_ge');
    const date = await ctx.admin.get(`${PARAMS}/list`, { createTime_dategt: 'yesterday' });
    expect(date.body.msg).toBe('请求参数类型错误: createTime_dategt');
  });

  it('ignores unknown filter keys and binds every value', async () => {
    const total = await count();
    expect((await ctx.admin.get<{ total: number }>(`${PARAMS}/list`, { nosuchfield: 'x', 'param_key) or (1=1': 'x' })).body.data.total).toBe(total);
    expect((await ctx.admin.get<{ total: number }>(`${PARAMS}/list`, { paramKey: "' OR '1'='1" })).body.data.total).toBe(0);
    expect((await ctx.admin.get<{ total: number }>(`${PARAMS}/list`, { paramKey_equal: "x' OR 1=1 --" })).body.data.total).toBe(0);
    // LIKE wildcards in a value are literal characters.
    expect((await ctx.admin.get<{ total: number }>(`${PARAMS}/list`, { paramKey: '%' })).body.data.total).toBe(0);
    expect((await ctx.admin.get<{ total: number }>(`${PARAMS}/list`, { paramKey: '_' })).body.data.total).toBe(0);
  });

  it('answers a detail that names no row by a key with nothing, not with some row', async () => {
    for (const query of [{}, { nosuchfield: 'x' }, { paramKey_like: 'account' }]) {
      expect((await ctx.admin.get(`${PARAMS}/detail`, query)).body, JSON.stringify(query)).toMatchObject({ code: 200, data: null });
    }
    // Likewise a notice, whose opening marks it read: nothing is marked.
    expect((await ctx.admin.get('/api/blade-desk/notice/detail', { id: '1999999999999999999', isView: 'true' })).body).toMatchObject({ code: 200, data: null });
    expect((await ctx.admin.get<{ paramKey: string }>(`${PARAMS}/detail`, { paramKey: 'account.initPassword' })).body.data.paramKey).toBe('account.initPassword');
  });

  it('ignores sort keys outside the whitelist', async () => {
    const reply = await ctx.admin.get<{ total: number }>(`${PARAMS}/list`, { descs: 'id; drop table blade_param', ascs: 'paramKey,1/0' });
    expect(reply.body.code).toBe(200);
    expect(reply.body.data.total).toBe(await count());
  });

  it('breaks ties of a sort newest first', async () => {
    const ids: string[] = [];
    for (const paramKey of ['tie.first', 'tie.second']) {
      ids.push((await ctx.admin.post<{ id: string }>(`${PARAMS}/submit`, { paramName: '同值', paramKey, paramValue: 'same' })).body.data.id);
    }
    const listed = await ctx.admin.get<{ records: Array<{ id: string }> }>(`${PARAMS}/list`, { paramKey: 'tie.', ascs: 'paramValue' });
    expect(listed.body.data.records.map((r) => r.id)).toEqual([...ids].reverse());
  });

  it('hides unexpected errors behind a 500 envelope and records them in the error log', async () => {
    const reply = await ctx.admin.request('GET', '/api/blade-test/boom', { query: { page: 2, password: 'hunter2' }, headers: { 'user-agent': 'bad-input-test' } });
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({ code: 500, success: false, data: null, msg: '服务器异常' });
    expect(JSON.stringify(reply.body)).not.toContain('secret');
    await ctx.server.app.platform.logs.flush();
    const logged = await ctx.server.app.platform.db.selectFrom('blade_log_error').selectAll().where('message', 'like', '%secret internals%').execute();
    expect(logged).toHaveLength(1);
    // Who, what and where, the query with its secrets masked, and the stack to find it by.
    const [row] = logged;
    expect(row).toMatchObject({
      tenantId: '000000',
      createBy: 'admin',
      createUser: seedId('user:000000:admin'),
      method: 'GET',
      requestUri: '/blade-test/boom',
      userAgent: 'bad-input-test',
      exceptionName: 'Error',
      message: 'secret internals at /work/main/server',
    });
    expect(String(row.remoteIp)).toMatch(/127\.0\.0\.1/);
    expect(JSON.parse(String(row.params))).toEqual({ page: '2', password: SECRET_MASK });
    expect(JSON.stringify(row)).not.toContain('hunter2');
    expect(String(row.stackTrace)).toMatch(/^Error: secret internals[\s\S]*bad-input\.test\.ts/);
    // A tenant's user is logged in its tenant; a call without a token in the platform's.
    expect((await ctx.demo.get('/api/blade-test/boom')).status).toBe(500);
    expect((await new ApiClient(ctx.server.url).get('/api/blade-test/boom-public')).status).toBe(500);
    await ctx.server.app.platform.logs.flush();
    const others = await ctx.server.app.platform.db
      .selectFrom('blade_log_error')
      .select(['tenantId', 'createBy', 'createUser', 'message'])
      .where('message', 'in', ['secret internals at /work/main/server', 'public internals'])
      .orderBy('createTime')
      .orderBy('id')
      .execute();
    expect(others.slice(1)).toEqual([
      { tenantId: '100001', createBy: 'admin', createUser: seedId('user:100001:admin'), message: 'secret internals at /work/main/server' },
      { tenantId: '000000', createBy: null, createUser: null, message: 'public internals' },
    ]);
  });
});
