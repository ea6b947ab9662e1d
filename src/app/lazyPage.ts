import { type ComponentType, createElement, lazy, type LazyExoticComponent } from 'react';
import { loadConsoleCatalogue } from './i18n';

/** Spec §9: a script chunk that has not arrived after 120000 ms counts as failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** A script chunk failed to load (network, a new deployment removed it, or the time-out). */
export class ChunkLoadError extends Error {
  constructor(cause: unknown) {
    super(`Loading chunk failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'ChunkLoadError';
  }
}

/** Runs a dynamic import with the chunk time-out; every failure becomes a ChunkLoadError. */
export function loadChunk<T>(load: () => Promise<T>, timeout = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(`timed out after ${timeout} ms`)), timeout);
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError(error));
      },
    );
  });
}

/** Resets of the lazy pages whose chunk failed, run by the page boundary's retry. */
const failed = new Set<() => void>();

/** Lets every page whose chunk failed import it again at its next render. */
export function retryFailedChunks(): void {
  for (const reset of failed) reset();
  failed.clear();
}

type PageModule<P> = { default: ComponentType<P> };

/**
 * React.lazy over loadChunk: a route's page as its own chunk. React.lazy keeps a failure for good, so a failed page
 * registers a reset that swaps in a fresh lazy component when the user asks to retry (not before: React renders
 * a failed tree once more on its own, which would import twice).
 */
function lazyChunk<P extends object>(load: () => Promise<PageModule<P>>): ComponentType<P> {
  const fresh = (): LazyExoticComponent<ComponentType<P>> =>
    lazy(() =>
      loadChunk(load).catch((error: unknown) => {
        failed.add(() => {
          current = fresh();
        });
        throw error;
      }),
    );
  let current = fresh();
  return (props: P) => createElement(current, props);
}

/** A console page: its chunk and the console's catalogue (src/app/i18n.ts) load together. */
export function lazyPage<P extends object = object>(load: () => Promise<PageModule<P>>): ComponentType<P> {
  return lazyChunk(() => Promise.all([load(), loadConsoleCatalogue()]).then(([page]) => page));
}

/**
 * A page shown before anyone signs in (login, lock, errors): its strings are in the entry catalogue, so it does not
 * wait for the console's (lingui.config.ts lists its sources; tests/unit/catalogs.test.ts checks what it imports).
 */
export function entryPage<P extends object = object>(load: () => Promise<PageModule<P>>): ComponentType<P> {
  return lazyChunk(load);
}
