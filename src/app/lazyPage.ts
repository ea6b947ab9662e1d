import { type ComponentType, lazy, type LazyExoticComponent } from 'react';

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

/** React.lazy over loadChunk: a route's page as its own chunk. */
export function lazyPage<P extends object = object>(load: () => Promise<{ default: ComponentType<P> }>): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => loadChunk(load));
}
