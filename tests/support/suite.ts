import { afterAll, beforeAll, describe } from 'vitest';
import type { App, AppOptions } from '../../server/app';
import type { Config } from '../../server/config';
import { type ApiClient, signedIn } from './client';
import { type StoreKind, storeKinds } from './databases';
import { startServer, type TestServer } from './server';

/** The seeded accounts a suite can ask for (README "Two commands"). */
export const ACCOUNTS = {
  /** The platform administrator: role `administrator` of tenant 000000. */
  admin: { tenantId: '000000', account: 'admin', password: 'admin' },
  /** The administrator of the demo tenant 100001. */
  demo: { tenantId: '100001', account: 'admin', password: 'admin' },
  /** The demo tenant's duty operator (seed step 0004). */
  operator: { tenantId: '100001', account: 'operator', password: 'Operator@2026' },
  /** A monitoring engineer of the demo tenant's 监测部 (seed step 0008). */
  zhangsan: { tenantId: '100001', account: 'zhangsan', password: 'Vigil@2026' },
  /** Head (post `manager`) of 监测部: zhangsan's department head. */
  lisi: { tenantId: '100001', account: 'lisi', password: 'Vigil@2026' },
} as const;

export type AccountName = keyof typeof ACCOUNTS;

export interface SuiteOptions<A extends AccountName> {
  /** Accounts signed in before the suite's own hooks run; each is a client on the context under its name. */
  signIn?: readonly A[];
  /** Config beyond the test defaults of startServer. */
  config?: Partial<Config>;
  /** Runs before the server listens, e.g. to add a route a test needs. */
  prepare?: (app: App) => void | Promise<void>;
  /** Seams of the server (a background job's clock); one server at a time uses them (stores run one after another). */
  app?: AppOptions;
}

/** What a suite's tests use; read it inside hooks and tests (it is filled in by the fixture's beforeAll). */
export type SuiteContext<A extends AccountName = never> = { readonly store: StoreKind; readonly server: TestServer } & { readonly [K in A]: ApiClient };

// Top-level await: the stores are known when the test files declare their suites.
const STORES = await storeKinds();

const present = <T>(value: T | undefined, what: string): T => {
  if (value === undefined) throw new Error(`${what} is not there yet: read the suite context inside hooks and tests`);
  return value;
};

/**
 * Declares `<name> on <store>` for every store (SQLite, and PostgreSQL when reachable): starts a server on a fresh
 * store, signs in the accounts asked for, and stops the server (removing its store) after the suite's own hooks.
 */
export function onEveryStore(name: string, body: (ctx: SuiteContext) => void): void;
export function onEveryStore<const A extends AccountName>(name: string, options: SuiteOptions<A>, body: (ctx: SuiteContext<A>) => void): void;
export function onEveryStore<const A extends AccountName>(name: string, ...args: [(ctx: SuiteContext) => void] | [SuiteOptions<A>, (ctx: SuiteContext<A>) => void]): void {
  const [options, body] = args.length === 1 ? [{} as SuiteOptions<A>, args[0] as (ctx: SuiteContext<A>) => void] : args;
  describe.each(STORES)(`${name} on %s`, (store) => {
    let server: TestServer | undefined;
    const clients = new Map<AccountName, ApiClient>();
    const ctx = { store, get server() { return present(server, 'the server'); } };
    for (const account of options.signIn ?? []) {
      Object.defineProperty(ctx, account, { enumerable: true, get: () => present(clients.get(account), `the ${account} client`) });
    }
    beforeAll(async () => {
      server = await startServer(store, options.config, options.prepare, undefined, options.app);
      for (const account of options.signIn ?? []) {
        const { account: login, password, tenantId } = ACCOUNTS[account];
        clients.set(account, await signedIn(server.url, login, password, tenantId));
      }
    });
    // Registered first, so it runs last: the suite's own afterAll hooks still have the server (sequence.hooks 'stack').
    afterAll(() => server?.stop());
    body(ctx as SuiteContext<A>);
  });
}
