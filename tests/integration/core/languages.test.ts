import { expect, it } from 'vitest';
import { ApiClient, type Envelope, type Reply } from '../../support/client';
import { expectRefusedExactly, refused } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { demoId, X } from '../monitoring/support';

/** Asks the same call in Chinese (no Accept-Language) and in English; returns both answers. */
async function inBoth<T>(client: ApiClient, call: (client: ApiClient) => Promise<T>): Promise<{ zh: T; en: T }> {
  client.language = undefined;
  const zh = await call(client);
  client.language = 'en-GB,en;q=0.9';
  try {
    return { zh, en: await call(client) };
  } finally {
    client.language = undefined;
  }
}

type Answer = Reply<Envelope<unknown>>;

onEveryStore('server messages in the request language', { signIn: ['demo'] }, (ctx) => {
  it('answers a refusal in English when asked, in Chinese otherwise', async () => {
    const remove = (client: ApiClient) => client.request<Envelope>('POST', `${X}/projectcategory/remove`, { query: { ids: demoId('category:bridge') } });
    const { zh, en } = await inBoth(ctx.demo, remove);
    expectRefusedExactly(zh, '请先删除子节点');
    expectRefusedExactly(en, 'Delete the child items first');
  });

  it('translates a validation message part by part and keeps its field path', async () => {
    const { zh, en } = await inBoth(ctx.demo, (client) => client.post(`${X}/project/submit`, { code: 'NO-NAME' }));
    expectRefusedExactly(zh, '参数校验失败: name: 请输入项目名称');
    expectRefusedExactly(en, 'Invalid parameters: name: Enter the project name');
  });

  it('fills a templated message, translating the message it holds and keeping the data', async () => {
    const batch = [
      { code: 'LANG-01', name: '好的' },
      { code: 'LANG-02', name: '坏的', projectId: demoId('project:nothing') },
    ];
    const { zh, en } = await inBoth(ctx.demo, (client) => client.post(`${X}/device/saveBatch`, batch));
    expectRefusedExactly(zh, '第2台设备: 项目不存在或无权操作');
    expectRefusedExactly(en, 'Device 2: Project does not exist or you may not access it');
  });

  it('answers 401, 403 and 404 in the request language', async () => {
    const guest = new ApiClient(ctx.server.url, '100001');
    const unauthorised = await inBoth(guest, (client): Promise<Answer> => client.get('/api/blade-system/param/list'));
    refused(unauthorised.zh, 401);
    refused(unauthorised.en, 401);
    expect([unauthorised.zh.body.msg, unauthorised.en.body.msg]).toEqual(['缺失令牌,鉴权失败', 'No token: sign in first']);

    const forbidden = await inBoth(ctx.demo, (client): Promise<Answer> => client.post('/api/blade-system/menu/submit', { name: '越权', code: 'evil', category: 1 }));
    refused(forbidden.zh, 403, '请求被拒绝');
    refused(forbidden.en, 403, 'You may not do this');

    const missing = await inBoth(ctx.demo, (client): Promise<Answer> => client.get('/api/no-such-call'));
    refused(missing.zh, 404, '404 没找到请求');
    refused(missing.en, 404, '404 Not found');
  });

  it('answers a refused sign-in in the request language', async () => {
    const guest = new ApiClient(ctx.server.url, '100001');
    const { zh, en } = await inBoth(guest, (client) => client.login('admin', 'wrong'));
    expect([zh.error_description, en.error_description]).toEqual(['用户名或密码错误', 'Wrong user name or password']);
  });

  it('leaves answers without a message as they are: a sign-in, a probe', async () => {
    const guest = new ApiClient(ctx.server.url, '100001');
    const { zh, en } = await inBoth(guest, (client) => client.login('admin', 'admin'));
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
    expect(en).toMatchObject({ account: 'admin', tenant_id: '100001', token_type: 'bearer' });
    expect(en).not.toHaveProperty('msg');
    expect(en).not.toHaveProperty('error_description');
    const health = await inBoth(guest, (client) => client.request('GET', '/health'));
    expect(health.en).toEqual(health.zh);
  });
});
