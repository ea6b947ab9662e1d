import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** The repository: the build is made from it and into it whatever the working directory. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * `npm run build:server`: the server as deployed — one ES module, build/server.mjs, and the workflow engine's worker
 * beside it, with their source maps; packages stay in node_modules. Started as BUILT_SERVER says, it is up in about
 * half the time the TypeScript takes through tsx (docs/operations.md "Running it"): a restarted process lets its
 * devices back seconds sooner.
 */
export async function buildServer(): Promise<void> {
  await build({
    absWorkingDir: ROOT,
    entryPoints: { server: 'server/main.ts', 'engine-worker': 'server/flow/engine-worker.ts' },
    outdir: 'build',
    outExtension: { '.js': '.mjs' },
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // server/files.ts: the build finds the files kept beside the server's code in ../server/.
    define: { SERVER_BUNDLE: 'true' },
    logLevel: 'warning',
  });
}

let made: Promise<void> | undefined;

/** The build, made once per process that asks (a benchmark run, a test file that starts the built server). */
export const builtOnce = (): Promise<void> => (made ??= buildServer());

/**
 * How a process runs the build (deploy/Dockerfile says the same): stack traces through the source maps, and a young
 * generation of up to 2 × 32 MB where V8 gives 2 × 16. A fleet reconnecting allocates ~200 MB a second of short-lived
 * objects that are still alive when 16 MB fill up (messages waiting for their group commit): 15 scavenges a second took
 * 300 ms of each second of the main thread; with 32 MB, 205 ms, for ~1 KB more RSS per connection (64 MB: 186 ms,
 * but 20.7 KB per connection). docs/benchmarks.md "Connections, thirty-first session". An old generation that starts
 * at 512 MB: the heap of a fleet's 20,000 connections grows through V8's first limits, and each full collection on
 * the way (one in the middle of a restart's recovery) doubled the devices' acknowledgement times for a quarter of a
 * second; ~2 KB more RSS per connection ("Connections, thirty-fifth session").
 */
export const BUILT_SERVER = ['--enable-source-maps', '--max-semi-space-size=32', '--initial-old-space-size=512', 'build/server.mjs'] as const;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer();
