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
  /**
   * Content security policy violations of every page of the browser (docs/security.md "Headers"): the console's
   * messages about the policy and the pages' `securitypolicyviolation` events.
   */
  violations: string[];
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
  const violations: string[] = [];
  context.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) violations.push(message.text());
  });
  await context.exposeBinding('__vigilCspViolation', (_source, text: string) => violations.push(text));
  await context.addInitScript(() => {
    const report = (globalThis as unknown as { __vigilCspViolation(text: string): void }).__vigilCspViolation;
    document.addEventListener('securitypolicyviolation', (event) =>
      report(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber} (${location.pathname})`),
    );
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return {
    context,
    page,
    errors,
    violations,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
