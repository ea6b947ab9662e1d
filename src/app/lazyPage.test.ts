import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, loadChunk } from './lazyPage';

describe('chunk loading', () => {
  afterEach(() => vi.useRealTimers());

  it('resolves the module', async () => {
    await expect(loadChunk(async () => ({ default: 1 }))).resolves.toEqual({ default: 1 });
  });

  it('turns a failed import into a ChunkLoadError', async () => {
    const error = await loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect((error as Error).name).toBe('ChunkLoadError');
  });

  it('gives up after 120000 ms', async () => {
    vi.useFakeTimers();
    const pending = loadChunk(() => new Promise(() => {}));
    const settled = pending.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    let done = false;
    void settled.then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled).toBeInstanceOf(ChunkLoadError);
  });
});
