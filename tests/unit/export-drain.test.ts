import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { settled } from '../support/wait';
import { drained } from '../../server/http/export';

/** A stream that has said "no more" (its buffer past the high-water mark). */
function full(): PassThrough {
  const stream = new PassThrough({ highWaterMark: 1 });
  stream.write('rows');
  return stream;
}

/** The export's wait between pages (server/http/export.ts): for the zip's intake and the response to take more. */
describe('drained', () => {
  it('resolves at once for a stream that takes more', async () => {
    expect(await settled(drained(new PassThrough()))).toBe(true);
  });

  it('waits for a full stream to drain', async () => {
    const stream = full();
    const wait = drained(stream);
    expect(await settled(wait)).toBe(false);
    stream.read();
    expect(await settled(wait)).toBe(true);
  });

  it('ends the wait when the stream is destroyed meanwhile, or was before', async () => {
    const waiting = full();
    const wait = drained(waiting);
    waiting.destroy();
    expect(await settled(wait)).toBe(true);
    // Destroyed already, its close told to nobody: waiting for it would never end.
    const gone = full();
    const closed = new Promise((resolve) => gone.once('close', resolve));
    gone.destroy();
    await closed;
    expect(await settled(drained(gone))).toBe(true);
  });
});
