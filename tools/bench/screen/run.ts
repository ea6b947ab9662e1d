import { execFileSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DISPLAY_HEADER } from '../../../resources/wire/screen';
import { hashSecret, newSecret } from '../../../server/auth/display';
import { openDatabase } from '../../../server/db/database';
import { nextId } from '../../../server/ids';
import { formatDateTime } from '../../../server/time';
import { CHROMIUM } from '../../../tests/support/browser';
import { type Fleet, PASSWORD, provisionFleet, TENANT } from '../support/fleet';
import { launchBareChromium } from '../support/bareChromium';
import { describeMachine } from '../support/machine';
import { signIn, startServerProcess } from '../support/server-process';
import { onEveryStore, percentile } from '../support/stores';
import type { PublishReport } from './publishers';

/**
 * The wall screen under a fleet (issue #14): Chromium opens the wall screen of a project of 2,000 devices × 10 values
 * (200 gateways of 10), every device publishing once a second over MQTT, for `--seconds` (default 120). Every value
 * carries its gateway's sequence number: the page notes when a tile it already shows changes its value, so
 * publish-to-screen is measured on one clock for every tile on screen, whichever page the screen is on. Half way
 * through, an administrator renames the link, so the screen fetches and takes a whole snapshot while measured.
 * After the first load: long tasks (PerformanceObserver), frames dropped (animation frames more than 1.5 frames
 * apart, counted in missed frames) and the JS heap after a forced GC at the start and the end.
 * Targets: publish-to-screen p99 < 1 s, no long task over 50 ms, heap growth under 10 MB over 10 minutes.
 * Usage: npm run bench:screen [-- --seconds 600 --gateways 200 --layout values]
 */
const args = new Map(process.argv.slice(2).map((arg, i, all) => [arg, all[i + 1]]));
const SECONDS = Number(args.get('--seconds') ?? 120);
const GATEWAYS = Number(args.get('--gateways') ?? 200);
const LAYOUT = args.get('--layout') ?? 'values';
const WARMUP_MS = 10_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Prepared {
  secret: string;
  linkId: string;
  /** device id -> its gateway's code */
  gatewayOf: Map<string, string>;
}

/** Device points (k0…k9, one decimal) for every device; a display link of the project. */
async function prepare(dataDir: string, databaseUrl: string | undefined, fleet: Fleet): Promise<Prepared> {
  const { db, close } = openDatabase({ dataDir, databaseUrl });
  try {
    const project = await db.selectFrom('wit_project').select('id').where('code', '=', 'BENCH').where('tenantId', '=', TENANT).executeTakeFirstOrThrow();
    const devices = await db.selectFrom('wit_device').select(['id', 'code']).where('projectId', '=', project.id).execute();
    const now = formatDateTime();
    const base = { tenantId: TENANT, createTime: now, updateTime: now, status: 1, isDeleted: 0 };
    const rows = devices.flatMap((d) => Array.from({ length: 10 }, (_, i) => ({ ...base, id: nextId(), deviceId: d.id, pointKey: `k${i}`, name: `k${i}`, precision: 1, channel: i + 1, sort: i + 1 })));
    for (let i = 0; i < rows.length; i += 500) await db.insertInto('wit_device_point').values(rows.slice(i, i + 500)).execute();
    const secret = newSecret();
    const linkId = nextId();
    await db
      .insertInto('wit_display_link')
      .values({ ...base, id: linkId, name: 'bench', projectIds: project.id, layout: LAYOUT, rotateSeconds: 3600, revoked: 0, secretHash: hashSecret(secret) })
      .execute();
    const gatewayByDevice = new Map(fleet.flatMap((f) => f.devices.map((code) => [code, f.gateway] as const)));
    const gatewayOf = new Map(devices.map((d) => [d.id, gatewayByDevice.get(d.code) ?? '']));
    console.log(`  provisioned ${fleet.length} gateways × ${fleet[0]?.devices.length ?? 0} devices, ${rows.length} channels`);
    return { secret, linkId, gatewayOf };
  } finally {
    await close();
  }
}

type Seen = [channel: string, text: string, at: number];
interface Recorded {
  seen: Seen[];
  /** [start (epoch ms), duration (ms)] */
  longTasks: Array<[number, number]>;
  /** Long animation frames that blocked: [start (epoch ms), duration (ms), what ran in them]. */
  longFrames: Array<[number, number, string]>;
  gaps: number[];
}

/** What the page records, installed before the wall's own script runs. */
function recorder(): void {
  const bench = { seen: [] as Seen[], longTasks: [] as Array<[number, number]>, longFrames: [] as Array<[number, number, string]>, gaps: [] as number[], measuring: false, last: performance.now() };
  (window as unknown as { vgBench: typeof bench }).vgBench = bench;
  new PerformanceObserver((list) => {
    if (bench.measuring) for (const entry of list.getEntries()) bench.longTasks.push([performance.timeOrigin + entry.startTime, entry.duration]);
  }).observe({ type: 'longtask', buffered: false });
  // The scripts a long task ran (Long Animation Frames): what a long task was, without a profiler's overhead.
  interface Script {
    invoker: string;
    sourceFunctionName: string;
    duration: number;
  }
  new PerformanceObserver((list) => {
    if (!bench.measuring) return;
    for (const entry of list.getEntries() as Array<PerformanceEntry & { blockingDuration: number; scripts: Script[] }>) {
      if (entry.blockingDuration <= 0) continue;
      const scripts = entry.scripts.map((s) => `${s.invoker}${s.sourceFunctionName ? ` ${s.sourceFunctionName}` : ''} ${s.duration.toFixed(0)} ms`).join('; ');
      bench.longFrames.push([performance.timeOrigin + entry.startTime, entry.duration, scripts]);
    }
  }).observe({ type: 'long-animation-frame', buffered: false });
  requestAnimationFrame(function frame(now) {
    if (bench.measuring) bench.gaps.push(now - bench.last);
    bench.last = now;
    requestAnimationFrame(frame);
  });
}

/**
 * Notes every change of the value in a value tile that showed the same channel before it (a tile mounted, or given
 * another channel, by paging shows the latest value it has: that is no publish arriving). Noted before paint, i.e.
 * what the user sees next frame.
 */
function watchTiles(): void {
  const bench = (window as unknown as { vgBench: { seen: Seen[]; measuring: boolean } }).vgBench;
  const known = new WeakMap<Element, { channel: string; text: string }>();
  const note = (tile: Element, record: boolean) => {
    const channel = tile.getAttribute('data-channel') ?? '';
    const text = tile.querySelector('b')?.textContent ?? '';
    const before = known.get(tile);
    known.set(tile, { channel, text });
    if (record && before?.channel === channel && before.text !== text) bench.seen.push([channel, text, Date.now()]);
  };
  for (const tile of document.querySelectorAll('[data-channel]')) note(tile, false);
  new MutationObserver((mutations) => {
    for (const m of mutations) {
      for (const node of m.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (node.matches('[data-channel]')) note(node, false);
        for (const tile of node.querySelectorAll('[data-channel]')) note(tile, false);
      }
      const element = m.target instanceof Element ? m.target : m.target.parentElement;
      const tile = element?.closest('[data-channel]');
      if (tile && known.has(tile)) note(tile, true);
    }
  }).observe(document.body, { characterData: true, childList: true, subtree: true });
}

async function bench(store: string, databaseUrl?: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-screen-'));
  const fleet = await provisionFleet(dataDir, databaseUrl, GATEWAYS);
  const { secret, linkId, gatewayOf } = await prepare(dataDir, databaseUrl, fleet);
  const consoleDir = mkdtempSync(join(tmpdir(), 'vigil-screen-console-'));
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--outDir', consoleDir, '--emptyOutDir', '--logLevel', 'warn'], { stdio: 'inherit' });
  const server = await startServerProcess({ DATA_DIR: dataDir, CONSOLE_DIR: consoleDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) });
  const specs = fleet.map((f) => `${f.gateway}:${f.devices.join(',')}`);
  const publishers = fork(join(import.meta.dirname, 'publishers.ts'), [`mqtt://127.0.0.1:${server.mqttPort}`, TENANT, PASSWORD, ...specs], { execArgv: ['--import', 'tsx'] });
  // Not Playwright: its inspector would decode every response on the page's main thread (support/bareChromium.ts).
  const browser = await launchBareChromium(CHROMIUM, ['--no-sandbox', '--disable-gpu', '--enable-precise-memory-info']);
  let report: PublishReport = { published: 0, failed: 0, sentAt: {} };
  try {
    await new Promise((resolve) => publishers.once('message', resolve));
    await timeSnapshot('at the start (no write-back yet)');
    const loadStarted = Date.now();
    const page = await browser.newPage(`${server.url}/wall#${secret}`, {
      width: 1920,
      height: 1080,
      // The functions handed to the page are compiled by tsx, whose esbuild names them with a `__name` helper.
      initScripts: ['globalThis.__name ??= (target) => target', `(${recorder.toString()})()`],
    });
    const { errors } = page;
    await page.waitFor(() => document.querySelector('[data-channel]') !== null, 180_000);
    const firstLoad = Date.now() - loadStarted;
    await page.evaluate(watchTiles);
    await sleep(WARMUP_MS);
    const heap = async () => {
      await page.send('HeapProfiler.collectGarbage');
      return (await page.send('Runtime.getHeapUsage')).usedSize / 1e6;
    };
    const heapStart = await heap();
    const measureFrom = Date.now();
    // BENCH_PROFILE=<file.cpuprofile>: the page's CPU profile of the measured time, to open in Chrome's DevTools.
    const profile = process.env.BENCH_PROFILE;
    if (profile) await page.send('Profiler.enable').then(() => page.send('Profiler.start'));
    await page.evaluate(() => {
      (window as unknown as { vgBench: { measuring: boolean } }).vgBench.measuring = true;
    });
    await sleep((SECONDS * 1000) / 2);
    // An administrator renames the link: the screen is told, and fetches and takes the whole snapshot again.
    // BENCH_TRACE=<file.json>: Chromium's trace of the rename's seconds (what the page's long tasks spent their time on).
    const trace = process.env.BENCH_TRACE;
    const stopTracing = trace ? await browser.trace(trace, ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink']) : undefined;
    const token = await signIn(server.url, TENANT);
    const renamedAt = Date.now();
    const renamed = await fetch(`${server.url}/api/wit-xinde/displaylink/submit`, {
      method: 'POST',
      headers: { 'blade-auth': `bearer ${token}`, 'content-type': 'application/json', 'tenant-id': TENANT },
      body: JSON.stringify({ id: linkId, name: 'bench (renamed)' }),
    });
    if (!renamed.ok) throw new Error(`renaming the link: ${renamed.status} ${await renamed.text()}`);
    if (stopTracing) {
      await sleep(3_000);
      await stopTracing();
    }
    await sleep((SECONDS * 1000) / 2 - (stopTracing ? 3_000 : 0));
    const recorded = await page.evaluate(() => (window as unknown as { vgBench: Recorded }).vgBench);
    if (profile) writeFileSync(profile, JSON.stringify((await page.send('Profiler.stop')).profile));
    const heapEnd = await heap();

    await timeSnapshot('at the end (from the write-back)');
    report = await stopPublishers();
    const timed = recorded.seen
      .filter(([, , at]) => at >= measureFrom)
      .flatMap(([channel, text, at]) => {
        const sent = report.sentAt[gatewayOf.get(channel.split(':')[0]) ?? '']?.[Math.floor(Number(text.replace(/[^\d.]/g, ''))) - 1];
        return sent === undefined ? [] : [[at - measureFrom, at - sent] as const];
      });
    const latencies = timed.map(([, latency]) => latency).sort((a, b) => a - b);
    // Where the slow ones were: p99 of each 10 s of the measured time (the link was renamed half way).
    const windows = Array.from({ length: Math.ceil(SECONDS / 10) }, (_, w) => timed.filter(([at]) => Math.floor(at / 10_000) === w).map(([, l]) => l).sort((a, b) => a - b));
    const tiles = new Set(recorded.seen.map(([channel]) => channel)).size;
    const longest = Math.max(0, ...recorded.longTasks.map(([, duration]) => duration));
    const dropped = recorded.gaps.reduce((n, gap) => n + (gap > 25 ? Math.round(gap / 16.7) - 1 : 0), 0);
    console.log(
      `  ${store.padEnd(10)} first load ${(firstLoad / 1000).toFixed(1)} s; publish→screen p50 ${percentile(latencies, 50).toFixed(0)} ms p99 ${percentile(latencies, 99).toFixed(0)} ms max ${Math.max(0, ...latencies).toFixed(0)} ms ` +
        `(${latencies.length} changes on ${tiles} tiles); long tasks ${recorded.longTasks.length} (longest ${longest.toFixed(0)} ms); ` +
        `frames ${recorded.gaps.length}, dropped ${dropped}; heap ${heapStart.toFixed(1)} → ${heapEnd.toFixed(1)} MB over ${SECONDS} s`,
    );
    const over = recorded.longTasks.filter(([, duration]) => duration > 50).map(([at, duration]) => `${duration.toFixed(0)} ms at ${((at - measureFrom) / 1000).toFixed(1)} s`);
    if (over.length) console.log(`  ${store.padEnd(10)} long tasks over 50 ms: ${over.join(', ')} (renamed at ${((renamedAt - measureFrom) / 1000).toFixed(1)} s)`);
    for (const [at, duration, scripts] of recorded.longFrames) {
      console.log(`  ${store.padEnd(10)}   frame of ${duration.toFixed(0)} ms at ${((at - measureFrom) / 1000).toFixed(1)} s: ${scripts || 'no script (style, layout, paint, GC)'}`);
    }
    if (errors.length) console.log(`  ${store.padEnd(10)} page errors: ${errors.join('\n')}`);
    console.log(`  ${store.padEnd(10)} publish→screen p99 per 10 s: ${windows.map((w) => percentile(w, 99).toFixed(0)).join(' ')} ms`);
  } finally {
    await browser.close();
    if (publishers.connected) report = await stopPublishers();
    console.log(`  ${store.padEnd(10)} ${report.published} gateway messages published, ${report.failed} failed`);
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(consoleDir, { recursive: true, force: true });
  }

  /** The snapshot as a screen fetches it, timed from outside the page. */
  async function timeSnapshot(when: string): Promise<void> {
    const started = performance.now();
    const snapshot = await fetch(`${server.url}/api/wit-xinde/screen/data`, { headers: { [DISPLAY_HEADER]: secret } });
    const bytes = (await snapshot.arrayBuffer()).byteLength;
    console.log(`  ${store.padEnd(10)} screen/data ${when}: ${snapshot.status} in ${(performance.now() - started).toFixed(0)} ms, ${(bytes / 1e6).toFixed(2)} MB`);
  }

  /** The publishers' report; a process that died without one has none to give (an empty report, said so). */
  function stopPublishers(): Promise<PublishReport> {
    const answered = new Promise<PublishReport>((resolve) => {
      const died = (code: number | null) => {
        console.log(`  ${store.padEnd(10)} the publishers exited with ${code} before reporting`);
        resolve({ published: 0, failed: 0, sentAt: {} });
      };
      publishers.once('exit', died);
      publishers.once('message', (m: PublishReport) => {
        publishers.off('exit', died);
        resolve(m);
      });
    });
    publishers.send('stop');
    return answered;
  }
}

console.log(describeMachine());
console.log(`Wall screen benchmark: ${GATEWAYS * 10} devices × 10 values, one reading per device per second over MQTT, layout ${LAYOUT}, ${SECONDS} s measured after a ${WARMUP_MS / 1000} s warm-up (the link renamed half way), Chromium 1920×1080`);
await onEveryStore(bench);
