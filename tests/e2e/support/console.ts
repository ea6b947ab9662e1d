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
    async login(account = 'admin', password = 'admin') {
      await page.goto('/login');
      await page.fill('#username', account);
      await page.fill('#password', password);
      await page.click('button[type=submit]');
      await page.waitForURL('**/wel/index');
    },
    async stop() {
      await browser.close();
      await server.stop();
    },
  };
}

/** The console's access token, read from its cookie. */
export async function accessTokenOf(page: Page): Promise<string> {
  const cookies = await page.context().cookies();
  return cookies.find((c) => c.name === 'vigil-access-token')?.value ?? '';
}

export const tabLabels = (page: Page) => page.locator('.vg-tabs .vg-tab').allInnerTexts();
