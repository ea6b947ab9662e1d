import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** The repository: the build is made from it and into it whatever the working directory. */
const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * `npm run build:server`: the server as deployed — one ES module, build/server.mjs, and the workflow engine's worker
 * beside it, with their source maps; packages stay in node_modules. Started with
 * `node --enable-source-maps build/server.mjs`, it is up in a third of the time the TypeScript takes through tsx
 * (docs/operations.md "Running it"): a restarted process lets its devices back in seconds sooner.
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer();
