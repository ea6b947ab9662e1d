/**
 * Bundle budget: builds the console, serves it from the real server and loads it in Chromium, then reports the gzip
 * size of the JavaScript the browser actually fetched for /login and for the first screen after login.
 * Target: /login <= 200 kB gzip. Run: npm run bench:bundle
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { launchBrowser } from '../../../tests/support/browser';
import { startServer } from '../../../tests/support/server';

const LOGIN_BUDGET_KB = 200;

interface Script {
  url: string;
  gzip: number;
}

interface Recording {
  /** Every script fetched so far, once no new script arrived for half a second and all bodies were read. */
  settled(): Promise<Script[]>;
}

/** Records every script the page fetches from now on. */
function recordScripts(page: Page): Recording {
  const reads: Promise<Script | undefined>[] = [];
  page.on('response', (response) => {
    const url = response.url();
    if (response.request().resourceType() !== 'script' && !url.endsWith('.js')) return;
    reads.push(
      response.body().then(
        (body) => ({ url: new URL(url).pathname, gzip: gzipSync(body).length }),
        () => undefined,
      ),
    );
  });
  return {
    settled: async () => {
      // Client-side navigation does not reset Playwright's load states: wait for the network to stay quiet.
      for (let seen = -1; seen !== reads.length; ) {
        seen = reads.length;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
      return (await Promise.all(reads)).filter((s): s is Script => !!s);
    },
  };
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const total = (scripts: readonly Script[]) => scripts.reduce((sum, s) => sum + s.gzip, 0);

function report(title: string, scripts: readonly Script[]): number {
  const sum = total(scripts);
  console.log(`\n${title}: ${scripts.length} scripts, ${kb(sum)} kB gzip`);
  for (const s of [...scripts].sort((a, b) => b.gzip - a.gzip).slice(0, 8)) console.log(`  ${kb(s.gzip).padStart(7)} kB  ${s.url}`);
  return sum;
}

async function main() {
  const outDir = mkdtempSync(join(tmpdir(), 'vigil-bench-console-'));
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'warn'], { stdio: 'inherit' });
  const server = await startServer('sqlite', { consoleDir: outDir });
  const browser = await launchBrowser(server.url);
  try {
    const page = browser.page;
    const recording = recordScripts(page);
    await page.goto('/login', { waitUntil: 'networkidle' });
    const loginScripts = await recording.settled();
    const login = report('/login (cold load)', loginScripts);

    await page.fill('#username', 'admin');
    await page.fill('#password', 'admin');
    await page.click('button[type=submit]');
    await page.waitForURL('**/wel/index');
    await page.locator('.vg-page').waitFor();
    report('first screen after login (added to /login)', (await recording.settled()).slice(loginScripts.length));

    const fresh = await browser.context.newPage();
    const cold = recordScripts(fresh);
    await fresh.goto('/wel/index', { waitUntil: 'networkidle' });
    report('first screen /wel/index (cold load, signed in)', await cold.settled());

    console.log(`\nbudget: /login ${kb(login)} kB of ${LOGIN_BUDGET_KB} kB gzip -> ${login <= LOGIN_BUDGET_KB * 1024 ? 'OK' : 'OVER'}`);
    if (login > LOGIN_BUDGET_KB * 1024) process.exitCode = 1;
  } finally {
    await browser.close();
    await server.stop();
    rmSync(outDir, { recursive: true, force: true });
  }
}

await main();
