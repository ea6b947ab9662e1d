import { Subject } from 'rxjs';
import { createActor, fromEventObservable, fromPromise, SimulatedClock, waitFor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { type Credentials, type RefreshInput, sessionMachine, type TickEvent, type TokenResponse } from './session';

const accepted = (n = 1): TokenResponse => ({
  access_token: `access-${n}`,
  refresh_token: `refresh-${n}`,
  tenant_id: '000000',
  user_id: '1',
  nick_name: '管理员',
  account: 'admin',
  role_id: '2',
  dept_id: '3',
});

function harness(options: { login?: TokenResponse; refresh?: (input: RefreshInput) => Promise<TokenResponse>; restored?: boolean } = {}) {
  const clock = new SimulatedClock();
  const ticks = new Subject<TickEvent>();
  const calls = { login: [] as Credentials[], refresh: [] as RefreshInput[], logout: 0 };
  const spies = { persist: vi.fn(), forget: vi.fn(), clearTabs: vi.fn(), clearLock: vi.fn(), enterConsole: vi.fn(), toLogin: vi.fn() };
  const machine = sessionMachine.provide({
    actors: {
      login: fromPromise<TokenResponse, Credentials>(async ({ input }) => {
        calls.login.push(input);
        return options.login ?? accepted();
      }),
      refresh: fromPromise<TokenResponse, RefreshInput>(async ({ input }) => {
        calls.refresh.push(input);
        return options.refresh ? options.refresh(input) : accepted(calls.refresh.length + 1);
      }),
      logout: fromPromise<void, void>(async () => {
        calls.logout += 1;
      }),
      ticks: fromEventObservable(() => ticks),
    },
    actions: spies,
  });
  const input = options.restored
    ? { tokens: { accessToken: 'a', refreshToken: 'r', datetime: 0 }, tenantId: '000000', now: () => clock.now() }
    : { now: () => clock.now() };
  const actor = createActor(machine, { input, clock }).start();
  const tick = () => ticks.next({ type: 'session.tick', at: clock.now() });
  return { actor, clock, calls, spies, tick };
}

const credentials: Credentials = { tenantId: '000000', username: 'admin', password: 'admin' };

describe('session machine', () => {
  it('logs in on a token response without error_description and stores tokens, tenant and user', async () => {
    const { actor, spies } = harness();
    expect(actor.getSnapshot().value).toBe('loggedOut');
    actor.send({ type: 'session.login', credentials });
    await waitFor(actor, (s) => s.matches('loggedIn'));
    const { context } = actor.getSnapshot();
    expect(context.tokens).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1', datetime: 0 });
    expect(context.tenantId).toBe('000000');
    expect(context.user).toMatchObject({ nickName: '管理员', userId: '1' });
    for (const spy of [spies.persist, spies.clearTabs, spies.clearLock, spies.enterConsole]) expect(spy).toHaveBeenCalledOnce();
  });

  it('stays logged out and keeps the error description of a refused login, storing nothing', async () => {
    const { actor, spies } = harness({ login: { error_code: 400, error_description: '用户名或密码错误' } });
    actor.send({ type: 'session.login', credentials });
    await waitFor(actor, (s) => s.matches('loggedOut') && !!s.context.error);
    expect(actor.getSnapshot().context.error).toBe('用户名或密码错误');
    expect(actor.getSnapshot().context.tokens).toBeUndefined();
    expect(spies.persist).not.toHaveBeenCalled();
  });

  it('keeps the whole refusal, so the login page can ask for a captcha', async () => {
    const refusal = { error_code: 428, error_description: '请输入验证码', captcha_required: true };
    const { actor } = harness({ login: refusal });
    actor.send({ type: 'session.login', credentials });
    await waitFor(actor, (s) => s.matches('loggedOut') && !!s.context.error);
    expect(actor.getSnapshot().context.refusal).toEqual(refusal);
  });

  it('restores a stored session as logged in', () => {
    const { actor } = harness({ restored: true });
    expect(actor.getSnapshot().matches('loggedIn')).toBe(true);
  });

  it('refreshes only once the token is tokenTime (3000 s) old', async () => {
    const { actor, clock, calls, tick } = harness({ restored: true });
    clock.increment(2_990_000);
    tick();
    expect(actor.getSnapshot().matches({ loggedIn: 'idle' })).toBe(true);
    clock.increment(10_000);
    tick();
    await waitFor(actor, (s) => s.context.tokens?.accessToken === 'access-2');
    expect(calls.refresh).toEqual([{ refreshToken: 'r', tenantId: '000000', choice: {} }]);
    expect(actor.getSnapshot().context.tokens?.datetime).toBe(3_000_000);
  });

  it('never overlaps refreshes: ticks during a refresh are ignored', async () => {
    let release: (r: TokenResponse) => void = () => {};
    const { actor, clock, calls, tick } = harness({
      restored: true,
      refresh: () => new Promise<TokenResponse>((resolve) => (release = resolve)),
    });
    clock.increment(3_000_000);
    tick();
    tick();
    clock.increment(10_000);
    tick();
    expect(actor.getSnapshot().matches({ loggedIn: 'refreshing' })).toBe(true);
    expect(calls.refresh).toHaveLength(1);
    release(accepted(2));
    await waitFor(actor, (s) => s.matches({ loggedIn: 'idle' }));
    tick();
    expect(calls.refresh).toHaveLength(1);
  });

  it('refreshes with the chosen dept and role', async () => {
    const { actor, calls } = harness({ restored: true });
    actor.send({ type: 'session.refresh', choice: { deptId: 'd9', roleId: 'r9' } });
    await waitFor(actor, (s) => s.matches({ loggedIn: 'idle' }) && calls.refresh.length === 1);
    expect(calls.refresh[0].choice).toEqual({ deptId: 'd9', roleId: 'r9' });
    expect(actor.getSnapshot().context.choice).toEqual({ deptId: 'd9', roleId: 'r9' });
  });

  it('ends the session when the refresh is refused', async () => {
    const { actor, clock, spies, tick } = harness({ restored: true, refresh: async () => ({ error_description: '令牌无效' }) });
    clock.increment(3_000_000);
    tick();
    await waitFor(actor, (s) => s.matches('loggedOut'));
    expect(spies.toLogin).toHaveBeenCalledOnce();
  });

  it('logs out through the server, clearing tokens, tabs and lock', async () => {
    const { actor, calls, spies } = harness({ restored: true });
    actor.send({ type: 'session.logout' });
    await waitFor(actor, (s) => s.matches('loggedOut'));
    expect(calls.logout).toBe(1);
    expect(actor.getSnapshot().context.tokens).toBeUndefined();
    for (const spy of [spies.forget, spies.clearTabs, spies.clearLock, spies.toLogin]) expect(spy).toHaveBeenCalledOnce();
  });

  it('federated logout clears locally without a server call', () => {
    const { actor, calls, spies } = harness({ restored: true });
    actor.send({ type: 'session.federatedLogout' });
    expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
    expect(calls.logout).toBe(0);
    expect(spies.forget).toHaveBeenCalledOnce();
    expect(spies.toLogin).toHaveBeenCalledOnce();
  });

  it('federated logout with no stored session (only a token cookie) forgets once and goes to /login', () => {
    const { actor, calls, spies } = harness();
    actor.send({ type: 'session.federatedLogout' });
    expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
    expect(calls.logout).toBe(0);
    for (const spy of [spies.forget, spies.clearTabs, spies.clearLock, spies.toLogin]) expect(spy).toHaveBeenCalledOnce();
  });

  it('a 401 logs out and goes to /login', () => {
    const { actor, spies } = harness({ restored: true });
    actor.send({ type: 'session.unauthorized' });
    expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
    expect(spies.toLogin).toHaveBeenCalledOnce();
    expect(spies.forget).toHaveBeenCalledOnce();
  });
});
