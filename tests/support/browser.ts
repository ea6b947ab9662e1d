import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

export interface TestBrowser {
  context: BrowserContext;
  page: Page;
  /** Messages of uncaught page errors and console errors, for assertions and debugging. */
  errors: string[];
  close(): Promise<void>;
}

/** Debian's Chromium through playwright-core, with a fresh profile. */
export async function launchBrowser(baseURL: string): Promise<TestBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'vigil-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    baseURL,
    viewport: { width: 1366, height: 800 },
    locale: 'zh-CN',
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return {
    context,
    page,
    errors,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
