import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { DISPLAY_HEADER } from '../../../resources/wire/screen';
import { hashSecret, newSecret } from '../../../server/auth/display';
import { openDatabase } from '../../../server/db/database';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import { CHROMIUM } from '../../../tests/support/browser';
import { type Fleet, PASSWORD, provisionFleet, TENANT } from '../support/fleet';
import { describeMachine } from '../support/machine';
import { startServerProcess } from '../support/server-process';
import { onEveryStore, percentile } from '../support/stores';

/**
 * The wall screen under a fleet (issue #14): Chromium opens the wall screen of a project of 2,000 devices × 10 values
 * (200 gateways of 10), every device publishing once a second over MQTT, for `--seconds` (default 120). A probe device
 * publishes a sequence number once a second; the page notes when each appears in the probe's tile, so publish-to-screen
 * is measured on one clock. After the first load: long tasks (PerformanceObserver), frames dropped (animation frames
 * more than 1.5 frames apart, counted in missed frames) and the JS heap after a forced GC at the start and the end.
 * Targets: publish-to-screen p99 < 1 s, no long task over 50 ms, heap growth under 10 MB over 10 minutes.
 * Usage: npm run bench:screen [-- --seconds 600 --gateways 200 --layout values]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const SECONDS = Number(args.get('--seconds') ?? 120);
const GATEWAYS = Number(args.get('--gateways') ?? 200);
const LAYOUT = args.get('--layout') ?? 'values';
const PROBE = 'BENCH-PROBE';
const WARMUP_MS = 10_000;

/** Device points (k0…k9) for every device, the probe first in the project's order with whole numbers; a display link. */
async function prepare(dataDir: string, databaseUrl: string | undefined, fleet: Fleet): Promise<{ secret: string; probeId: string }> {
  const { db, close } = openDatabase({ dataDir, databaseUrl });
  try {
    const project = await db.selectFrom('wit_project').select('id').where('code', '=', 'BENCH').where('tenantId', '=', TENANT).executeTakeFirstOrThrow();
    const devices = await db.selectFrom('wit_device').select(['id', 'code']).where('projectId', '=', project.id).execute();
    const now = formatDateTime();
    const base = { tenantId: TENANT, createTime: now, updateTime: now, status: 1, isDeleted: 0 };
    const rows = devices.flatMap((d) => Array.from({ length: 10 }, (_, i) => ({ ...base, id: nextId(), deviceId: d.id, pointKey: `k${i}`, name: `k${i}`, precision: d.code === PROBE ? 0 : 3, channel: i + 1, sort: i + 1 })));
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('wit_device_point').values(rows.slice(i, i + 500)).execute();
    await db.updateTable('wit_device').set({ sort: 1 }).where('projectId', '=', project.id).execute();
    const probe = devices.find((d) => d.code === PROBE);
    if (!probe) throw new Error('no probe device');
    await db.updateTable('wit_device').set({ sort: 0 }).where('id', '=', probe.id).execute();
    const secret = newSecret();
    await db
      .insertInto('wit_display_link')
      .values({ ...base, id: nextId(), name: 'bench', projectIds: project.id, layout: LAYOUT, rotateSeconds: 3600, revoked: 0, secretHash: hashSecret(secret) })
      .execute();
    console.log(`  provisioned ${fleet.length} gateways × ${fleet[0]?.devices.length ?? 0} devices + the probe, ${rows.length} channels`);
    return { secret, probeId: probe.id };
  } finally {
    await close();
  }
}

interface Sent {
  probe?: number;
  sentAt?: number;
  ready?: boolean;
  published?: number;
  failed?: number;
}

/** What the page records, installed before the wall's own script runs. */
function recorder(): void {
  const w = window as unknown as { vgBench: { seen: Array<[string, number]>; longTasks: number[]; gaps: number[]; measuring: boolean } };
  const bench = { seen: [] as Array<[string, number]>, longTasks: [] as number[], gaps: [] as number[], measuring: false };
  w.vgBench = bench;
  new PerformanceObserver((list) => {
    if (bench.measuring) for (const entry of list.getEntries()) bench.longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: false });
  let last = performance.now();
  const frame = (now: number) => {
    if (bench.measuring) bench.gaps.push(now - last);
    last = now;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

async function bench(store: string, databaseUrl?: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-screen-'));
  const fleet = await provisionFleet(dataDir, databaseUrl, GATEWAYS, [PROBE]);
  const { secret, probeId } = await prepare(dataDir, databaseUrl, fleet);
  const consoleDir = mkdtempSync(join(tmpdir(), 'vigil-screen-console-'));
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', consoleDir, '--emptyOutDir', '--logLevel', 'warn'], { stdio: 'inherit' });
  const server = await startServerProcess({ DATA_DIR: dataDir, CONSOLE_DIR: consoleDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const specs = fleet.map((f) => `${f.gateway}:${f.devices.join(',')}`);
  const publishers = fork(join(import.meta.dirname, 'publishers.ts'), [`mqtt://127.0.0.1:${server.mqttPort}`, TENANT, PASSWORD, PROBE, ...specs], { execArgv: ['--import', 'tsx'] });
  const sent = new Map<number, number>();
  let report: Sent = {};
  publishers.on('message', (m: Sent) => {
    if (m.probe !== undefined && m.sentAt !== undefined) sent.set(m.probe, m.sentAt);
    if (m.published !== undefined) report = m;
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--enable-precise-memory-info'] });
  try {
    await new Promise((resolve) => publishers.once('message', resolve));
    const snapshotStarted = performance.now();
    const snapshot = await fetch(`${server.url}/api/wit-xinde/screen/data`, { headers: { [DISPLAY_HEADER]: secret } });
    const snapshotBytes = (await snapshot.arrayBuffer()).byteLength;
    console.log(`  ${store.padEnd(10)} screen/data ${snapshot.status} in ${(performance.now() - snapshotStarted).toFixed(0)} ms, ${(snapshotBytes / 1e6).toFixed(1)} MB`);
    const page = await browser.newPage({ viewport: { width: 1920, height: 1080 } });
    await page.addInitScript(recorder);
    const loadStarted = Date.now();
    await page.goto(`${server.url}/wall#${secret}`);
    const tile = page.locator(`[data-channel="${probeId}:k0"]`);
    await tile.waitFor({ timeout: 180_000 }).catch(async (error: unknown) => {
      await page.screenshot({ path: join(tmpdir(), 'vigil-screen-bench.png'), timeout: 120_000 }).catch(() => undefined);
      console.log(`  the probe's tile did not show; the page as it was: ${join(tmpdir(), 'vigil-screen-bench.png')}`);
      throw error;
    });
    const firstLoad = Date.now() - loadStarted;
    // The probe's value as the page shows it, noted the moment it changes (before paint: what the user sees next frame).
    await tile.evaluate((element) => {
      const w = window as unknown as { vgBench: { seen: Array<[string, number]> } };
      let shown = '';
      new MutationObserver(() => {
        const text = element.querySelector('b')?.textContent ?? '';
        if (text !== shown) w.vgBench.seen.push([(shown = text), Date.now()]);
      }).observe(element, { characterData: true, childList: true, subtree: true });
    });
    await page.waitForTimeout(WARMUP_MS);
    const cdp = await page.context().newCDPSession(page);
    const heap = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return (await cdp.send('Runtime.getHeapUsage')).usedSize / 1e6;
    };
    const heapStart = await heap();
    const measureFrom = Date.now();
    await page.evaluate(() => {
      (window as unknown as { vgBench: { measuring: boolean } }).vgBench.measuring = true;
    });
    await page.waitForTimeout(SECONDS * 1000);
    const recorded = await page.evaluate(() => (window as unknown as { vgBench: { seen: Array<[string, number]>; longTasks: number[]; gaps: number[] } }).vgBench);
    const heapEnd = await heap();

    const latencies = recorded.seen
      .filter(([, at]) => at >= measureFrom)
      .map(([text, at]) => [Number(text.replace(/[^\d]/g, '')), at] as const)
      .filter(([seq]) => sent.has(seq))
      .map(([seq, at]) => at - (sent.get(seq) ?? at))
      .sort((a, b) => a - b);
    const probesSent = [...sent.values()].filter((t) => t >= measureFrom && t <= measureFrom + SECONDS * 1000 - 2000).length;
    const longest = Math.max(0, ...recorded.longTasks);
    const dropped = recorded.gaps.reduce((n, gap) => n + (gap > 25 ? Math.round(gap / 16.7) - 1 : 0), 0);
    const frames = recorded.gaps.length;
    console.log(
      `  ${store.padEnd(10)} first load ${(firstLoad / 1000).toFixed(1)} s; publish→screen p50 ${percentile(latencies, 0.5).toFixed(0)} ms p99 ${percentile(latencies, 0.99).toFixed(0)} ms ` +
        `(${latencies.length} of ${probesSent} probes seen); long tasks ${recorded.longTasks.length} (longest ${longest.toFixed(0)} ms); ` +
        `frames ${frames}, dropped ${dropped}; heap ${heapStart.toFixed(1)} → ${heapEnd.toFixed(1)} MB over ${SECONDS} s`,
    );
  } finally {
    await browser.close();
    const done = new Promise((resolve) => publishers.once('exit', resolve));
    publishers.send('stop');
    await done;
    console.log(`  ${store.padEnd(10)} ${report.published ?? 0} gateway messages published, ${report.failed ?? 0} failed`);
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(consoleDir, { recursive: true, force: true });
  }
}

console.log(describeMachine());
console.log(`Wall screen benchmark: ${GATEWAYS * 10 + 1} devices × 10 values, one reading per device per second over MQTT, layout ${LAYOUT}, ${SECONDS} s measured after a ${WARMUP_MS / 1000} s warm-up, Chromium 1920×1080`);
await onEveryStore(bench);
