import { beforeAll, expect, it } from 'vitest';
import { publishNotice, unreadNotices } from '../../../server/modules/blade-desk';
import { principalOf } from '../../../server/auth/tokens';
import type { ApiClient } from '../../support/client';
import { expectOk, type PageData } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { createStaff, type Staff } from './support';

type Notice = Record<string, unknown> & { id: string; title: string; readFlag: number; content: string };

onEveryStore('notices', { signIn: ['admin', 'demo'] }, (ctx) => {
  let alice: Staff;
  let bob: Staff;
  beforeAll(async () => {
    alice = await createStaff(ctx.server, '100001', 'alice');
    bob = await createStaff(ctx.server, '100001', 'bob');
  });

  const list = async (client: ApiClient, query: Record<string, string | number> = {}) =>
    expectOk(await client.get<PageData<Notice>>('/api/blade-desk/notice/list', { size: 50, ...query })).records;
  const flags = async (client: ApiClient) => Object.fromEntries((await list(client)).map((n) => [n.title, n.readFlag]));

  it('validates and sanitises notices', async () => {
    const empty = await ctx.demo.post('/api/blade-desk/notice/submit', {});
    expect(empty.status).toBe(400);
    expect(empty.body.msg).toContain('请输入通知标题');
    expect(empty.body.msg).toContain('请选择通知类型');

    const content = [
      '<p style="color: red; position: fixed">重要</p><script>alert(1)</script>',
      '<b>加粗</b><a href="javascript:alert(2)">坏链接</a><a href="https://example.com/a">好链接</a>',
      '<img src="https://example.com/p.png" onerror="alert(3)" alt="图"><div onclick="alert(4)">点击</div>',
    ].join('');
    const saved = expectOk(await ctx.demo.post<Notice>('/api/blade-desk/notice/submit', { title: '维护通知', category: 1, content }));
    expect(saved.releaseTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    const stored = expectOk(await ctx.demo.get<Notice>('/api/blade-desk/notice/detail', { id: saved.id })).content;
    for (const gone of ['<script', 'alert(', 'onerror', 'onclick', 'javascript:', 'position']) expect(stored).not.toContain(gone);
    for (const kept of ['<p style="color:red">重要</p>', '<b>加粗</b>', '<a href="https://example.com/a">好链接</a>', '<img src="https://example.com/p.png" alt="图" />', '点击']) {
      expect(stored).toContain(kept);
    }
    const updated = expectOk(await ctx.demo.post<Notice>('/api/blade-desk/notice/submit', { id: saved.id, content: '<i>改</i><iframe src="https://x"></iframe>' }));
    expect(updated.content).toBe('<i>改</i>');
  });

  it('keeps read flags per user: detail with isView, setRead and batchSetRead', async () => {
    const ids: string[] = [];
    for (const [title, category] of [['停电通知', 1], ['会议安排', 7], ['巡检计划', 6]] as const) {
      ids.push(expectOk(await ctx.demo.post<Notice>('/api/blade-desk/notice/submit', { title, category, content: `<p>${title}</p>` })).id);
    }
    const [outage, meeting, inspection] = ids;
    const aliceView = await list(alice.client);
    expect(aliceView.find((n) => n.id === meeting)).toMatchObject({ readFlag: 0, categoryName: '会议通知' });
    expect(aliceView.find((n) => n.id === outage)?.categoryName).toBe('发布通知');

    const plain = expectOk(await alice.client.get<Notice>('/api/blade-desk/notice/detail', { id: outage }));
    expect(plain.readFlag).toBe(0);
    expect(expectOk(await alice.client.get<Notice>('/api/blade-desk/notice/detail', { id: outage, isView: 'true' })).readFlag).toBe(1);
    expect(await flags(alice.client)).toMatchObject({ 停电通知: 1, 会议安排: 0, 巡检计划: 0 });
    expect(await flags(bob.client)).toMatchObject({ 停电通知: 0, 会议安排: 0, 巡检计划: 0 });

    expectOk(await bob.client.post('/api/blade-desk/notice/setRead', undefined, { id: meeting }));
    expectOk(await bob.client.post('/api/blade-desk/notice/setRead', { id: meeting })); // twice is harmless
    expect(await flags(bob.client)).toMatchObject({ 停电通知: 0, 会议安排: 1, 巡检计划: 0 });

    const unread = await list(alice.client, { readFlag: 0 });
    expect(unread.map((n) => n.title).sort()).toEqual(['会议安排', '巡检计划', '维护通知'].sort());
    expectOk(await alice.client.post('/api/blade-desk/notice/batchSetRead', unread));
    expect(await list(alice.client, { readFlag: 0 })).toEqual([]);
    expect(await flags(bob.client)).toMatchObject({ 停电通知: 0, 会议安排: 1, 巡检计划: 0 });
    expectOk(await bob.client.post('/api/blade-desk/notice/batchSetRead', [outage, inspection]));
    expect(await flags(bob.client)).toMatchObject({ 停电通知: 1, 巡检计划: 1 });

    expect((await bob.client.post('/api/blade-desk/notice/batchSetRead', [])).body.msg).toBe('请选择通知');
    expect((await bob.client.post('/api/blade-desk/notice/batchSetRead', ['abc'])).status).toBe(400);
    expect(expectOk(await alice.client.get<PageData<Notice>>('/api/blade-desk/notice/page', { title: '会议' })).records.map((n) => n.id)).toEqual([meeting]);
  });

  it('publishes notices to chosen users from server code', async () => {
    const id = await publishNotice(ctx.server.app.platform, { tenantId: '100001', title: '告警: 沉降超限', category: 8, content: '<p>P-01</p><script>x()</script>', userIds: [alice.userId] });
    const aliceNotice = (await list(alice.client)).find((n) => n.id === id);
    expect(aliceNotice).toMatchObject({ readFlag: 0, categoryName: '告警通知', content: '<p>P-01</p>' });
    expect((await list(bob.client)).some((n) => n.id === id)).toBe(false);
    expect(expectOk(await bob.client.get('/api/blade-desk/notice/detail', { id, isView: 'true' }))).toBeNull();
    expect((await bob.client.post('/api/blade-desk/notice/setRead', undefined, { id })).body.msg).toBe('数据不存在或无权操作');

    // The notice centre's station list: unread, visible notices of the caller's tenant.
    const platform = ctx.server.app.platform;
    const asCaller = async (client: ApiClient) => {
      const verified = await platform.tokens.verify(client.token!, 'access_token');
      if (!('claims' in verified)) throw new Error(verified.error);
      return { principal: principalOf(verified.claims) };
    };
    expect((await unreadNotices(platform, await asCaller(alice.client))).map((n) => n.id)).toEqual([id]);
    expect((await unreadNotices(platform, await asCaller(bob.client))).map((n) => n.id)).not.toContain(id);
  });

  it('never shows or marks another tenant\'s notices', async () => {
    const own = expectOk(await ctx.admin.post<Notice>('/api/blade-desk/notice/submit', { title: '平台公告', category: 1 }));
    expect((await list(ctx.demo)).some((n) => n.id === own.id)).toBe(false);
    expect(expectOk(await ctx.demo.get('/api/blade-desk/notice/detail', { id: own.id }))).toBeNull();
    expect((await alice.client.post('/api/blade-desk/notice/setRead', undefined, { id: own.id })).status).toBe(400);
    expect((await ctx.demo.post('/api/blade-desk/notice/remove', undefined, { ids: own.id })).status).toBe(400);
    expect((await list(ctx.admin)).some((n) => n.id === own.id)).toBe(true);
    expectOk(await ctx.admin.post('/api/blade-desk/notice/remove', undefined, { ids: own.id }));
    expect((await list(ctx.admin)).some((n) => n.id === own.id)).toBe(false);
  });
});
