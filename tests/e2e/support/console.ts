import type { Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import type { Config } from '../../../server/config';
import { launchBrowser, type TestBrowser } from '../../support/browser';
import { type ApiClient, signedIn } from '../../support/client';
import { startServer, type TestServer } from '../../support/server';

export interface ConsoleUnderTest {
  /** The server now running (another one after `restartServer`). */
  server: TestServer;
  browser: TestBrowser;
  page: Page;
  /** Signs in through the login page and waits for the home tab. */
  login(account?: string, password?: string): Promise<void>;
  /** Restarts the server in place (same store and ports, tests/support/server.ts): the browser stays open. */
  restartServer(): Promise<TestServer>;
  stop(): Promise<void>;
}

/** A real server (SQLite) serving this run's console build, and a fresh Chromium profile pointed at it. */
export async function openConsole(overrides: Partial<Config> = {}): Promise<ConsoleUnderTest> {
  let server = await startServer('sqlite', { consoleDir: inject('consoleDir'), ...overrides });
  const browser = await launchBrowser(server.url);
  const page = browser.page;
  page.setDefaultTimeout(15_000);
  return {
    get server() {
      return server;
    },
    browser,
    page,
    login: (account = 'admin', password = 'admin') => signIn(page, undefined, account, password),
    async restartServer() {
      server = await server.restart();
      return server;
    },
    async stop() {
      await browser.close();
      await server.stop();
      // Every screen a suite opened ran under the server's content security policy (docs/security.md "Headers").
      if (browser.violations.length) throw new Error(`content security policy violations:\n${browser.violations.join('\n')}`);
    },
  };
}

/** Signs in through the login page (into `tenantId` when given, else the form's default) and waits for the home tab. */
export async function signIn(page: Page, tenantId?: string, account = 'admin', password = 'admin'): Promise<void> {
  await page.goto('/login');
  if (tenantId !== undefined) await page.fill('#tenantId', tenantId);
  await page.fill('#username', account);
  await page.fill('#password', password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/wel/index');
}

/**
 * Opens a screen by its sidebar entry (opening its group first: one group is open at a time) and waits for its path
 * when given.
 */
export async function openMenu(page: Page, title: string, path?: string): Promise<void> {
  const entry = page.locator('.vg-sidebar').getByText(title, { exact: true });
  await entry.waitFor({ state: 'attached' });
  const group = page.locator('.vg-sidebar .vg-menu-group').filter({ has: page.getByText(title, { exact: true }) }).last();
  const header = group.locator(':scope > .vg-menu-item');
  if ((await header.count()) && (await header.getAttribute('aria-expanded')) === 'false') {
    await header.click();
    // The group slides open (Blueprint's Collapse, whose height is `auto` once open): the entry is clicked where it
    // rests, not while it moves.
    await group.locator(':scope > .bp6-collapse[style*="height: auto"]').waitFor();
  }
  await entry.click();
  if (!path) return;
  await page.waitForURL(`**${path}`).catch((error: unknown) => {
    throw new Error(`the menu entry ${title} did not lead to ${path}: the page is at ${page.url()}`, { cause: error });
  });
}

/** The console's access token, read from its cookie. */
export async function accessTokenOf(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === 'vigil-access-token')?.value ?? '';
}

export const tabLabels = (page: Page) => page.locator('.vg-tabs .vg-tab').allInnerTexts();

/** A suite's console, with the administrator over the API (for what the screens saved). */
export interface SuiteConsole extends ConsoleUnderTest {
  api: ApiClient;
}

export interface ConsoleSuiteOptions {
  /** Whether the browser and the API client sign in as the administrator first (default true). */
  signIn?: boolean;
  /** The tenant the administrator signs in to; the login form's default (and the API's 000000) when absent. */
  tenantId?: string;
  /** The screen to open after signing in, by its sidebar entry; a list/edit screen is ready when its add button is. */
  screen?: { menu: string; path: string };
}

/**
 * Declares a suite's console: started (and signed in, on its screen) before the suite's own hooks, stopped after
 * them (like onEveryStore). Read it inside hooks and tests.
 */
export function consoleSuite(options: ConsoleSuiteOptions = {}): SuiteConsole {
  let started: SuiteConsole | undefined;
  const present = <T>(value: T | undefined, what = 'the console'): T => {
    if (value === undefined) throw new Error(`${what} is not there yet: read it inside hooks and tests`);
    return value;
  };
  let api: ApiClient | undefined;
  beforeAll(async () => {
    const c = await openConsole();
    started = { ...c, get server() { return c.server; }, get api() { return present(api, 'the API client (signed in with the console only)'); } };
    if (options.signIn === false) return;
    api = await signedIn(c.server.url, 'admin', 'admin', options.tenantId);
    await signIn(c.page, options.tenantId);
    if (!options.screen) return;
    await openMenu(c.page, options.screen.menu, options.screen.path);
    await c.page.locator('.vg-add').waitFor();
  });
  afterAll(() => started?.stop());
  return {
    get server() { return present(started).server; },
    get browser() { return present(started).browser; },
    get page() { return present(started).page; },
    get api() { return present(started).api; },
    login: (account, password) => present(started).login(account, password),
    restartServer: () => present(started).restartServer(),
    stop: () => present(started).stop(),
  };
}
