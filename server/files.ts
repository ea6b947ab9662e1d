import { createRequire } from 'node:module';

/** Defined by the server's build (tools/build-server.ts); undeclared when the TypeScript runs through tsx. */
declare const SERVER_BUNDLE: boolean | undefined;

/** Whether this is the built server (build/server.mjs, docs/operations.md "Running it") rather than its sources. */
export const bundled = typeof SERVER_BUNDLE !== 'undefined' && SERVER_BUNDLE;

const resolve = createRequire(import.meta.url).resolve;

/**
 * A file kept beside the server's code (a writer thread's script, a seeded process), by its path under server/.
 * Resolved as a module is, not by URL arithmetic on import.meta.url, which a test runner's browser-like environment
 * rewrites. The build is one file in build/ that leaves these where they are: it finds them in ../server/.
 */
export const serverFile = (path: string): string => resolve(bundled ? `../server/${path}` : `./${path}`);

/** A module the build writes beside itself (a worker's entry point, build/<name>.mjs). */
export const builtFile = (name: string): string => resolve(`./${name}.mjs`);
