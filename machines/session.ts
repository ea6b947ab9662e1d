import { assign, enqueueActions, fromEventObservable, fromPromise, setup } from 'xstate';
import { NEVER, type Observable } from 'rxjs';

/** The raw body of POST /api/blade-auth/oauth/token (no envelope); a refusal carries error_description. */
export interface TokenResponse {
  access_token?: string;
  refresh_token?: string;
  token_type?: string;
  expires_in?: number;
  tenant_id?: string;
  user_id?: string;
  dept_id?: string;
  role_id?: string;
  role_name?: string;
  account?: string;
  user_name?: string;
  nick_name?: string;
  avatar?: string;
  oauth_id?: string;
  error_code?: number | string;
  error_description?: string;
  /** The next sign-in of the account needs the captcha grant (docs/sign-in.md). */
  captcha_required?: boolean;
  /** Throttled (error_code 429): seconds before the address may sign in again. */
  retry_after?: number;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  /** When the tokens were stored (ms since epoch); the refresh check measures from here. */
  datetime: number;
}

export interface UserInfo {
  userId: string;
  tenantId: string;
  account: string;
  userName: string;
  nickName: string;
  roleName: string;
  roleId: string;
  deptId: string;
  avatar: string;
  oauthId: string;
}

export interface Credentials {
  tenantId: string;
  username: string;
  password: string;
  deptId?: string;
  roleId?: string;
  captcha?: { key: string; code: string };
  /** Third-party sign-in: the provider's callback (source, code, state) instead of a password. */
  social?: { source: string; code: string; state?: string };
}

export interface Choice {
  deptId?: string;
  roleId?: string;
}

export interface SessionContext {
  tokens?: Tokens;
  tenantId?: string;
  user?: UserInfo;
  /** The dept/role chosen through switch dept/role; refreshes keep it. */
  choice: Choice;
  /** error_description of the last refused login. */
  error?: string;
  /** The whole answer of the last refused login: its code, and whether a captcha is now needed. */
  refusal?: TokenResponse;
  /** Seconds a token lives before the check refreshes it (site tokenTime). */
  tokenTime: number;
  now: () => number;
}

export interface SessionInput {
  tokens?: Tokens;
  tenantId?: string;
  user?: UserInfo;
  choice?: Choice;
  tokenTime?: number;
  now?: () => number;
}

export type TickEvent = { type: 'session.tick'; at: number };

export type SessionEvent =
  | { type: 'session.login'; credentials: Credentials }
  | TickEvent
  | { type: 'session.refresh'; choice?: Choice }
  | { type: 'session.logout' }
  | { type: 'session.federatedLogout' }
  | { type: 'session.unauthorized' };

export interface RefreshInput {
  refreshToken: string;
  tenantId: string;
  choice: Choice;
}

export const TOKEN_TIME_SECONDS = 3000;

/** A token response counts as a login only when it carries a token and no error description. */
export const isAccepted = (response: TokenResponse): boolean => !response.error_description && !!response.access_token;

export const userOf = (r: TokenResponse): UserInfo => ({
  userId: String(r.user_id ?? ''),
  tenantId: String(r.tenant_id ?? ''),
  account: r.account ?? '',
  userName: r.user_name ?? '',
  nickName: r.nick_name ?? '',
  roleName: r.role_name ?? '',
  roleId: String(r.role_id ?? ''),
  deptId: String(r.dept_id ?? ''),
  avatar: r.avatar ?? '',
  oauthId: String(r.oauth_id ?? ''),
});

const stored = (response: TokenResponse, now: number) => ({
  tokens: { accessToken: response.access_token ?? '', refreshToken: response.refresh_token ?? '', datetime: now },
  tenantId: String(response.tenant_id ?? ''),
  user: userOf(response),
  error: undefined,
  refusal: undefined,
});

const cleared = { tokens: undefined, user: undefined, tenantId: undefined, choice: {} };

/**
 * The session: logged out -> logged in on an accepted token response; in logged-in, a tick stream drives the token
 * refresh once the token is tokenTime seconds old. The `refreshing` state is the refresh lock: ticks are ignored
 * while a refresh is under way, so refreshes never overlap.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
  },
  actors: {
    login: fromPromise<TokenResponse, Credentials>(async () => ({ error_description: 'login is not provided' })),
    refresh: fromPromise<TokenResponse, RefreshInput>(async () => ({ error_description: 'refresh is not provided' })),
    logout: fromPromise<void, void>(async () => undefined),
    ticks: fromEventObservable<TickEvent, void>(() => NEVER as Observable<TickEvent>),
  },
  actions: {
    /** Writes tokens (cookies) and user info (storage); app-provided. */
    persist: () => {},
    /** Forgets tokens, user info, menus and roles; app-provided. */
    forget: () => {},
    clearTabs: () => {},
    clearLock: () => {},
    enterConsole: () => {},
    toLogin: () => {},
    /** Every way out of the session ends alike: state cleared, tokens forgotten, tabs and lock dropped, to /login. */
    signOut: enqueueActions(({ enqueue }) => {
      enqueue.assign(cleared);
      enqueue('forget');
      enqueue('clearTabs');
      enqueue('clearLock');
      enqueue('toLogin');
    }),
  },
  guards: {
    accepted: (_, response: TokenResponse) => isAccepted(response),
    hasTokens: ({ context }) => !!context.tokens?.accessToken,
    tokenIsOld: ({ context }, at: number) =>
      !!context.tokens && (at - context.tokens.datetime) / 1000 >= context.tokenTime,
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    tokens: input.tokens,
    tenantId: input.tenantId,
    user: input.user,
    choice: input.choice ?? {},
    tokenTime: input.tokenTime ?? TOKEN_TIME_SECONDS,
    now: input.now ?? Date.now,
  }),
  initial: 'restoring',
  states: {
    restoring: {
      always: [{ guard: 'hasTokens', target: 'loggedIn' }, { target: 'loggedOut' }],
    },
    loggedOut: {
      on: {
        'session.login': 'loggingIn',
        // A token cookie without a stored session (spec §2): nothing to revoke, only the cookies and local state to drop.
        'session.federatedLogout': { actions: 'signOut' },
      },
    },
    loggingIn: {
      entry: assign({ error: undefined, refusal: undefined }),
      invoke: {
        src: 'login',
        input: ({ event }) => (event as Extract<SessionEvent, { type: 'session.login' }>).credentials,
        onDone: [
          {
            guard: { type: 'accepted', params: ({ event }) => event.output },
            target: 'loggedIn',
            actions: [
              assign(({ context, event }) => ({ ...stored(event.output, context.now()), choice: {} })),
              'persist',
              'clearTabs',
              'clearLock',
              'enterConsole',
            ],
          },
          {
            target: 'loggedOut',
            actions: assign({ error: ({ event }) => event.output.error_description ?? '', refusal: ({ event }) => event.output }),
          },
        ],
        onError: { target: 'loggedOut', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    loggedIn: {
      initial: 'idle',
      invoke: { src: 'ticks' },
      on: {
        'session.logout': 'loggingOut',
        'session.federatedLogout': { target: 'loggedOut', actions: 'signOut' },
        'session.unauthorized': { target: 'loggedOut', actions: 'signOut' },
      },
      states: {
        idle: {
          on: {
            'session.tick': { guard: { type: 'tokenIsOld', params: ({ event }) => event.at }, target: 'refreshing' },
            'session.refresh': {
              target: 'refreshing',
              actions: assign({ choice: ({ context, event }) => event.choice ?? context.choice }),
            },
          },
        },
        refreshing: {
          invoke: {
            src: 'refresh',
            input: ({ context }) => ({
              refreshToken: context.tokens?.refreshToken ?? '',
              tenantId: context.tenantId ?? '',
              choice: context.choice,
            }),
            onDone: [
              {
                guard: { type: 'accepted', params: ({ event }) => event.output },
                target: 'idle',
                actions: [assign(({ context, event }) => stored(event.output, context.now())), 'persist'],
              },
              // A refused refresh (revoked or expired refresh token) ends the session.
              { target: '#session.loggedOut', actions: 'signOut' },
            ],
            // Network trouble: release the lock and let the next tick try again.
            onError: 'idle',
          },
        },
      },
    },
    loggingOut: {
      invoke: {
        src: 'logout',
        onDone: { target: 'loggedOut', actions: 'signOut' },
        onError: { target: 'loggedOut', actions: 'signOut' },
      },
    },
  },
});

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
