import { randomBytes } from 'node:crypto';
import { get, type IncomingMessage, type ServerResponse } from 'node:http';
import { expect, it } from 'vitest';
import type { App } from '../../../server/app';
import { needs } from '../../../server/auth/rights';
import type { Row } from '../../../server/db/database';
import { contextOf } from '../../../server/http/context';
import { ok } from '../../../server/http/envelope';
import { type ExportRows, pagedRows, repositoryRows, sendExport } from '../../../server/http/export';
import { param } from '../../../resources/system/param';
import { expectOk } from '../../support/envelope';
import { onEveryStore } from '../../support/suite';
import { until } from '../../support/wait';

/**
 * An export's stream (server/http/export.ts `sendExport`) when something goes wrong halfway: a client that goes away
 * stops the reading of the list, and a page that cannot be read ends the file instead of leaving it open.
 */

const PAGE = 100;
const TOTAL = 50_000;
const SPEC = { columns: [{ field: 'n', title: 'n' }, { field: 'text', title: 'text' }], labels: new Map(), name: 'stream' };

/** Rows that do not compress to nothing: a file of some megabytes, far more than a socket's buffers. */
const page = (current: number): Row[] => Array.from({ length: PAGE }, (_, i) => ({ n: (current - 1) * PAGE + i, text: randomBytes(1000).toString('hex') }));

const state = {
  reads: 0,
  finished: undefined as (() => void) | undefined,
  read: undefined as (() => void) | undefined,
  /** The response of the last long export. */
  response: undefined as ServerResponse | undefined,
};

/** The rows, telling the test when the export stops asking for them (its loop ended, or it gave up the iterator). */
function watched(rows: ExportRows): ExportRows {
  async function* pages() {
    try {
      yield* rows.pages;
    } finally {
      state.finished?.();
    }
  }
  return { total: rows.total, pages: pages() };
}

const routes = ({ app, platform }: App) => {
  // The rows of a list export read a page at a time, the first row of the last page removed after the first page.
  app.get('/blade-test/export/removing', needs('param'), async (request) => {
    const ctx = contextOf(request);
    const repo = platform.repo(param);
    const rows = await repositoryRows(repo, ctx, { paramKey: 'export.removing.' }, [], async (page) => page, { maxRows: 100, pageSize: 2 });
    const keys: unknown[] = [];
    for await (const page of rows.pages) {
      if (keys.length === 0) await repo.removeWhere(ctx, [(eb) => eb('paramKey', '=', 'export.removing.2')]);
      keys.push(...page.map((row) => row.paramKey));
    }
    return ok({ total: rows.total, keys });
  });
  app.get('/blade-test/export/long', needs.public, async (request, reply) => {
    const rows = await pagedRows(async (current) => {
      state.reads += 1;
      state.read?.();
      return { records: page(current), total: TOTAL };
    }, { maxRows: TOTAL, pageSize: PAGE });
    state.response = reply.raw;
    return sendExport(request, reply, SPEC, watched(rows));
  });
  app.get('/blade-test/export/failing', needs.public, async (request, reply) => {
    const rows = await pagedRows(async (current) => {
      if (current === 3) throw new Error('the database went away');
      return { records: page(current), total: TOTAL };
    }, { maxRows: TOTAL, pageSize: PAGE });
    return sendExport(request, reply, SPEC, rows);
  });
};

onEveryStore('export streams', { signIn: ['admin'], prepare: routes }, (ctx) => {
  it('stops reading the list when the client goes away', async () => {
    state.reads = 0;
    const finished = new Promise<void>((resolve) => (state.finished = resolve));
    const aborted = new AbortController();
    const response = await fetch(`${ctx.server.url}/api/blade-test/export/long`, { signal: aborted.signal });
    expect(response.status).toBe(200);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    aborted.abort();
    // The export gives the rows up once it sees the connection gone, long before their end.
    await finished;
    expect(state.reads).toBeGreaterThan(0);
    expect(state.reads).toBeLessThan(TOTAL / PAGE);
  });

  it('gives the rows up when the client goes away while the export waits for it to read', async () => {
    state.reads = 0;
    const finished = new Promise<void>((resolve) => (state.finished = resolve));
    const request = get(`${ctx.server.url}/api/blade-test/export/long`);
    const response = await new Promise<IncomingMessage>((resolve) => request.on('response', resolve));
    // Nothing read past the headers: the buffers on the way fill, and the export waits for the zip and the socket.
    response.pause();
    await until(() => state.response?.writableNeedDrain, 10_000, 'the response backed up');
    request.destroy();
    await finished;
    expect(state.reads).toBeLessThan(TOTAL / PAGE);
  });

  it('reads the list no further ahead of a slow client than the buffers on the way hold', async () => {
    state.reads = 0;
    let received = 0;
    // What the client had when each page was asked for.
    const receivedAt: number[] = [];
    state.read = () => receivedAt.push(received);
    try {
      // Node's client, which reads from its socket only as its reader asks (fetch's takes all it is sent).
      const response = await new Promise<IncomingMessage>((resolve, reject) => get(`${ctx.server.url}/api/blade-test/export/long`, resolve).on('error', reject));
      for await (const chunk of response) {
        received += (chunk as Buffer).byteLength;
        // A client slower than the server: it takes a chunk a millisecond.
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    } finally {
      state.read = undefined;
    }
    expect(receivedAt).toHaveLength(TOTAL / PAGE);
    // How far the file was ahead of the client when each page was read: the pages before it, less what the client had.
    const perPage = received / receivedAt.length;
    const ahead = Math.max(...receivedAt.map((got, i) => i * perPage - got));
    // The sockets' and streams' buffers hold a few hundred KB here (a few MB at most); reading on regardless, the
    // server had read 50 MB of this 55 MB file ahead of its client, and held it.
    expect(ahead).toBeLessThan(8 * 1024 * 1024);
  });

  it('ends the file, cut short, when a page cannot be read', async () => {
    const response = await fetch(`${ctx.server.url}/api/blade-test/export/failing`);
    expect(response.status).toBe(200);
    // The headers went out with the first page; the failure can only cut the body, never leave it hanging.
    await expect(response.arrayBuffer()).rejects.toThrow();
  });

  it('leaves out a row removed after the list was read, and keeps the order of the rest', async () => {
    for (const n of [1, 2, 3, 4]) expectOk(await ctx.admin.post('/api/blade-system/param/submit', { paramName: `导出${n}`, paramKey: `export.removing.${n}`, paramValue: 'v' }));
    // Newest first, two a page: the removed row is the first of the second page.
    const answer = expectOk(await ctx.admin.get<{ total: number; keys: string[] }>('/api/blade-test/export/removing'));
    expect(answer).toEqual({ total: 4, keys: ['export.removing.4', 'export.removing.3', 'export.removing.1'] });
  });
});
