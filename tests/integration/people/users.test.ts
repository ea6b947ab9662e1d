import { beforeAll, expect, it } from 'vitest';
import { ApiClient, signedIn } from '../../support/client';
import { expectOk, expectRefused, expectRefusedExactly, type PageData, postParams, type Row } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { findByAccount, insertRole, setAccountQuota } from './support';

const USER = '/api/blade-user';

onEveryStore('users', { signIn: ['admin'] }, (ctx) => {
  let me: Row; // the platform administrator's own user

  beforeAll(async () => {
    me = expectOk(await ctx.admin.get<Row>(`${USER}/info`));
  });

  /** Creates a user of the platform tenant with the administrator's dept and post and returns it. */
  const create = async (account: string, extra: Record<string, unknown> = {}) =>
    expectOk(await ctx.admin.post<Row>(`${USER}/submit`, { account, password: 'Pass@1234', name: account, realName: `${account} 实名`, deptId: me.deptId, postId: me.postId, roleId: me.roleId, ...extra }));

  const loginAs = (account: string, password: string, tenantId = '000000') => new ApiClient(ctx.server.url, tenantId).login(account, password, tenantId);

  it('answers info with the caller, its names and no password', async () => {
    expect(me).toMatchObject({ account: 'admin', tenantId: '000000', roleName: '超级管理员', deptName: 'Vigil', postName: '首席执行官', tenantName: '管理组', sexName: '男' });
    expect(me).not.toHaveProperty('password');
  });

  it('creates users and lists them with resolved names, never with the password', async () => {
    const created = await create('usr_alpha', { sex: 2, phone: '13800138000', email: 'zs@example.com' });
    expect(created).not.toHaveProperty('password');
    const page = expectOk(await ctx.admin.get<PageData>(`${USER}/page`, { current: 1, size: 10, account: 'usr_alpha' }));
    expect(page.total).toBe(1);
    expect(page.records[0]).toMatchObject({ account: 'usr_alpha', roleName: '超级管理员', deptName: 'Vigil', postName: '首席执行官', tenantName: '管理组', sexName: '女', status: 1 });
    expect(page.records[0]).not.toHaveProperty('password');
    const listed = expectOk(await ctx.admin.get<PageData>(`${USER}/list`, { realName: 'usr_alpha 实名' }));
    expect(listed.records.map((r) => r.account)).toEqual(['usr_alpha']);
    const detail = expectOk(await ctx.admin.get<Row>(`${USER}/detail`, { id: created.id }));
    expect(detail).toMatchObject({ id: created.id, account: 'usr_alpha', roleName: '超级管理员', phone: '13800138000' });
    expect(detail).not.toHaveProperty('password');
    expect((await loginAs('usr_alpha', 'Pass@1234')).access_token).toBeTruthy();
  });

  it('refuses duplicate accounts, missing or weak passwords, bad phones and foreign roles', async () => {
    await create('usr_beta');
    expectRefusedExactly(await ctx.admin.post(`${USER}/submit`, { account: 'usr_beta', password: 'Pass@1234' }), '当前用户已存在!');
    // The same account in another tenant is a different user.
    const other = expectOk(await ctx.admin.post<Row>(`${USER}/submit`, { account: 'usr_beta', password: 'Pass@1234', tenantId: '100001' }));
    expect(other.tenantId).toBe('100001');
    expectRefusedExactly(await ctx.admin.post(`${USER}/submit`, { account: 'wangwu' }), '请输入密码');
    expectRefusedExactly(await ctx.admin.post(`${USER}/submit`, { account: 'wangwu', password: 'password' }), '密码必须包含数字、字母和特殊字符');
    expectRefusedExactly(await ctx.admin.post(`${USER}/submit`, { account: 'wangwu', password: 'a@1' }), '密码长度应为6到30位');
    expectRefused(await ctx.admin.post(`${USER}/submit`, { password: 'Pass@1234' }), '请输入登录账号');
    expectRefused(await ctx.admin.post(`${USER}/submit`, { account: 'wang wu', password: 'Pass@1234' }), '账号只能包含字母、数字和 _ . @ -');
    expectRefused(await ctx.admin.post(`${USER}/submit`, { account: 'wangwu', password: 'Pass@1234', phone: '1380013' }), 'phone: 手机号码长度不为11位');
    expectRefused(await ctx.admin.post(`${USER}/submit`, { account: 'wangwu', password: 'Pass@1234', phone: '12800138000' }), 'phone: 手机号码格式不正确');
    expectRefused(await ctx.admin.post(`${USER}/submit`, { account: 'wangwu', password: 'Pass@1234', email: 'not-an-email' }), '邮箱格式不正确');
    const foreignRole = await insertRole(ctx.server, '100001', 'foreign');
    expectRefusedExactly(await ctx.admin.post(`${USER}/submit`, { account: 'wangwu', password: 'Pass@1234', roleId: foreignRole }), '所选角色不存在或不属于该租户');
    expectRefusedExactly(await ctx.admin.post(`${USER}/submit`, { account: 'wangwu', password: 'Pass@1234', tenantId: '999999' }), '租户信息错误');
    expect(await findByAccount(ctx.admin, 'wangwu')).toBeUndefined();
  });

  it('edits users through submit and update without touching the password', async () => {
    const user = await create('zhaoliu');
    expectOk(await ctx.admin.post(`${USER}/submit`, { id: user.id, realName: '赵六', password: 'Other@9999' }));
    expectOk(await ctx.admin.post(`${USER}/update`, { id: user.id, phone: '13912345678' }));
    expect(await findByAccount(ctx.admin, 'zhaoliu')).toMatchObject({ realName: '赵六', phone: '13912345678' });
    expect((await loginAs('zhaoliu', 'Pass@1234')).access_token).toBeTruthy();
    expect((await loginAs('zhaoliu', 'Other@9999')).error_description).toBe('用户名或密码错误');
    expectRefusedExactly(await ctx.admin.post(`${USER}/submit`, { id: user.id, account: 'usr_alpha' }), '当前用户已存在!');
    expectRefusedExactly(await ctx.admin.post(`${USER}/submit`, { id: user.id, tenantId: '100001' }), '不能修改用户所属租户');
  });

  it('removes others but never the caller', async () => {
    const user = await create('sunqi');
    expectRefusedExactly(await postParams(ctx.admin, `${USER}/remove`, { ids: String(me.id) }), '不能删除本账号!');
    expectRefusedExactly(await ctx.admin.post(`${USER}/submit`, { id: me.id, status: 0 }), '不能停用本账号!');
    expectOk(await postParams(ctx.admin, `${USER}/remove`, { ids: user.id }));
    expect(await findByAccount(ctx.admin, 'sunqi')).toBeUndefined();
    expect((await loginAs('sunqi', 'Pass@1234')).error_description).toBe('用户名或密码错误');
  });

  it('pages users of a dept and its descendants', async () => {
    const top = expectOk(await ctx.admin.post<Row>('/api/blade-system/dept/submit', { parentId: me.deptId, deptName: '工程部' }));
    const sub = expectOk(await ctx.admin.post<Row>('/api/blade-system/dept/submit', { parentId: top.id, deptName: '监测组' }));
    await create('in_top', { deptId: top.id });
    await create('in_sub', { deptId: `${me.deptId},${sub.id}` });
    const accounts = async (deptId: string) =>
      expectOk(await ctx.admin.get<PageData>(`${USER}/page`, { deptId, size: 100 })).records.map((r) => r.account).sort();
    expect(await accounts(top.id)).toEqual(['in_sub', 'in_top']);
    expect(await accounts(sub.id)).toEqual(['in_sub']);
    expect(await accounts(String(me.deptId))).toEqual(expect.arrayContaining(['admin', 'in_sub', 'in_top', 'usr_alpha']));
    expect((await ctx.admin.get(`${USER}/page`, { deptId: 'x' })).body.msg).toBe('请求参数类型错误: deptId');
  });

  it('resets passwords to the tenant initial password', async () => {
    const user = await create('reset_me');
    expectOk(await postParams(ctx.admin, `${USER}/reset-password`, { userIds: user.id }));
    expect((await loginAs('reset_me', 'Pass@1234')).error_description).toBe('用户名或密码错误');
    expect((await loginAs('reset_me', 'Vigil@123456')).access_token).toBeTruthy();
    // The initial password is the tenant's param account.initPassword.
    const params = expectOk(await ctx.admin.get<PageData>('/api/blade-system/param/list', { paramKey_equal: 'account.initPassword' }));
    expectOk(await ctx.admin.post('/api/blade-system/param/submit', { ...params.records[0], paramValue: 'Init#2026x' }));
    expectOk(await ctx.admin.post(`${USER}/reset-password`, { userIds: user.id }));
    expect((await loginAs('reset_me', 'Init#2026x')).access_token).toBeTruthy();
    expectRefusedExactly(await postParams(ctx.admin, `${USER}/reset-password`, { userIds: '123' }), '数据不存在或无权操作');
    expect((await postParams(ctx.admin, `${USER}/reset-password`, {})).body.msg).toBe('缺少必要的请求参数: userIds');
  });

  it('changes the own password only with the old one and a valid new one typed twice', async () => {
    await create('changer');
    const api = await signedIn(ctx.server.url, 'changer', 'Pass@1234');
    const change = (oldPassword: string, newPassword: string, newPassword1 = newPassword) =>
      postParams(api, `${USER}/update-password`, { oldPassword, newPassword, newPassword1 });
    expectRefusedExactly(await change('Wrong@1234', 'Next@1234'), '原密码不正确');
    expectRefusedExactly(await change('Pass@1234', 'Next@1234', 'Next@12345'), '两次密码输入不一致');
    expectRefusedExactly(await change('Pass@1234', 'nextnext'), '密码必须包含数字、字母和特殊字符');
    expectRefusedExactly(await change('', 'Next@1234'), '请输入原密码');
    expectOk(await change('Pass@1234', 'Next@1234'));
    expect((await loginAs('changer', 'Pass@1234')).error_description).toBe('用户名或密码错误');
    expect((await loginAs('changer', 'Next@1234')).access_token).toBeTruthy();
  });

  it('edits the own profile with the phone rules of the spec', async () => {
    await create('profile');
    const api = await signedIn(ctx.server.url, 'profile', 'Pass@1234');
    const update = (body: Record<string, unknown>) => api.post(`${USER}/update-info`, body);
    expectRefused(await update({ phone: '1381234' }), '手机号码长度不为11位');
    expectRefused(await update({ phone: '12812345678' }), '手机号码格式不正确');
    expectRefused(await update({ phone: '1381234567a' }), '手机号码格式不正确');
    expectRefused(await update({ email: 'nobody' }), '邮箱格式不正确');
    expectOk(await update({ avatar: '/img/a.png', realName: '档案', name: '昵称', phone: '15012345678', email: 'p@example.com' }));
    expect(expectOk(await api.get<Row>(`${USER}/info`))).toMatchObject({ account: 'profile', avatar: '/img/a.png', realName: '档案', name: '昵称', phone: '15012345678', email: 'p@example.com' });
    // An empty phone is accepted by the server (the console's form requires one).
    expectOk(await update({ phone: '' }));
    expect(expectOk(await api.get<Row>(`${USER}/info`)).phone).toBeNull();
  });

  it('grants roles of the user tenant, effective at the next sign-in', async () => {
    const user = await create('granted');
    const inspector = await insertRole(ctx.server, '000000', 'inspector');
    const before = await loginAs('granted', 'Pass@1234');
    expect(before.role_id).toBe(me.roleId);
    expectOk(await postParams(ctx.admin, `${USER}/grant`, { userIds: user.id, roleIds: inspector }));
    const after = await loginAs('granted', 'Pass@1234');
    expect(after.role_id).toBe(inspector);
    expect(after.role_name).toBe('inspector');
    expect(expectOk(await ctx.admin.get<Row>(`${USER}/detail`, { id: user.id })).roleName).toBe('角色 inspector');
    const foreign = await insertRole(ctx.server, '100001', 'outsider');
    expectRefusedExactly(await postParams(ctx.admin, `${USER}/grant`, { userIds: user.id, roleIds: foreign }), '所选角色不存在或不属于该租户');
    const elsewhere = expectOk(await ctx.admin.post<Row>(`${USER}/submit`, { account: 'granted', password: 'Pass@1234', tenantId: '100001' }));
    expectRefusedExactly(await postParams(ctx.admin, `${USER}/grant`, { userIds: `${user.id},${elsewhere.id}`, roleIds: inspector }), '所选用户不属于同一租户');
    expect((await postParams(ctx.admin, `${USER}/grant`, { userIds: user.id })).body.msg).toBe('缺少必要的请求参数: roleIds');
  });

  it('asks for a captcha after 3 wrong passwords until an administrator unlocks the account', async () => {
    const user = await create('locked');
    for (let i = 1; i <= 3; i++) expect((await loginAs('locked', 'Wrong@0000')).error_description).toBe('用户名或密码错误');
    expect(await loginAs('locked', 'Pass@1234')).toMatchObject({ error_code: 428, error_description: '请输入验证码', captcha_required: true });
    expect(expectOk(await ctx.admin.get<Row>(`${USER}/detail`, { id: user.id }))).toMatchObject({ locked: false, captchaRequired: true });
    expectOk(await postParams(ctx.admin, `${USER}/unlock`, { userIds: user.id }));
    expect(expectOk(await ctx.admin.get<Row>(`${USER}/detail`, { id: user.id }))).toMatchObject({ locked: false, captchaRequired: false });
    expect((await loginAs('locked', 'Pass@1234')).access_token).toBeTruthy();
  });

  it('keeps a platform profile per user', async () => {
    const user = await create('platformed');
    expectOk(await postParams(ctx.admin, `${USER}/update-platform`, { userId: user.id, userType: '2', userExt: '{"deviceToken":"abc"}' }));
    expect(expectOk(await ctx.admin.get<Row>(`${USER}/platform-detail`, { userId: user.id }))).toMatchObject({ id: user.id, userType: 2, userTypeName: 'APP', userExt: '{"deviceToken":"abc"}' });
    expectRefusedExactly(await postParams(ctx.admin, `${USER}/update-platform`, { userId: user.id, userType: '9' }), '用户平台不存在');
    expectRefused(await postParams(ctx.admin, `${USER}/update-platform`, { userId: user.id, userType: '1', userExt: '{oops' }), '用户拓展信息必须是 JSON');
    expectRefusedExactly(await ctx.admin.get(`${USER}/platform-detail`, { userId: '42' }), '数据不存在或无权操作');
  });

  it('refuses new users beyond the tenant account quota', async () => {
    const users = expectOk(await ctx.admin.get<PageData>(`${USER}/page`, { tenantId_equal: '100001' })).total;
    await setAccountQuota(ctx.server, '100001', users);
    expectRefusedExactly(await ctx.admin.post(`${USER}/submit`, { account: 'one_more', password: 'Pass@1234', tenantId: '100001' }), '当前租户已到最大账号额度');
    await setAccountQuota(ctx.server, '100001', users + 1);
    expectOk(await ctx.admin.post(`${USER}/submit`, { account: 'one_more', password: 'Pass@1234', tenantId: '100001' }));
    await setAccountQuota(ctx.server, '100001', -1);
  });
});
