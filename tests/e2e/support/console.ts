import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import type { Config } from '../../../server/config';
import { launchBrowser, type TestBrowser } from '../../support/browser';
import { startServer, type TestServer } from '../../support/server';

export interface ConsoleUnderTest {
  server: TestServer;
  browser: TestBrowser;
  page: Page;
  /** Signs in through the login page and waits for the home tab. */
  login(account?: string, password?: string): Promise<void>;
  stop(): Promise<void>;
}

/** A real server (SQLite) serving this run's console build, and a fresh Chromium profile pointed at it. */
export async function openConsole(overrides: Partial<Config> = {}): Promise<ConsoleUnderTest> {
  const server = await startServer('sqlite', { consoleDir: inject('consoleDir'), ...overrides });
  const browser = await launchBrowser(server.url);
  const page = browser.page;
  page.setDefaultTimeout(15_000);
  return {
    server,
    browser,
    page,
    login: (account = 'admin', password = 'admin') => signIn(page, undefined, account, password),
    async stop() {
      await browser.close();
      await server.stop();
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

/** Opens a screen by its sidebar entry (opening its group first: one group is open at a time) and waits for its path. */
export async function openMenu(page: Page, title: string, path: string): Promise<void> {
  const entry = page.locator('.vg-sidebar').getByText(title, { exact: true });
  await entry.waitFor({ state: 'attached' });
  const header = page.locator('.vg-sidebar .vg-menu-group').filter({ has: page.getByText(title, { exact: true }) }).last().locator(':scope > .vg-menu-item');
  if ((await header.count()) && (await header.getAttribute('aria-expanded')) === 'false') await header.click();
  await entry.click();
  await page.waitForURL(`**${path}`);
}

/** The console's access token, read from its cookie. */
export async function accessTokenOf(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === 'vigil-access-token')?.value ?? '';
}

export const tabLabels = (page: Page) => page.locator('.vg-tabs .vg-tab').allInnerTexts();
