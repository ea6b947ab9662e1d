import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/**
 * Chromium driven over the DevTools protocol on a pipe, with no domain enabled but those a benchmark asks for.
 * Playwright enables the Network domain on every page it drives, and the inspector then keeps and decodes every
 * response body on the page's main thread: a 3 MB answer costs the page 100 ms of long tasks that a screen nobody
 * inspects never has. A benchmark of the page's own main thread (bench:screen) drives Chromium this way instead.
 */

type Params = Record<string, unknown>;
// The protocol's results are as varied as its methods; callers read the fields they asked for.
// biome-ignore lint/suspicious/noExplicitAny: a protocol result, read by the caller that knows its method
type Result = any;
type Listener = (params: Params, sessionId?: string) => void;

export interface BarePage {
  send(method: string, params?: Params): Promise<Result>;
  /** Calls `fn(arg)` in the page and returns its (awaited) value. */
  evaluate<T, A = undefined>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T>;
  /** Waits until `fn()` is true in the page. */
  waitFor(fn: () => boolean, timeoutMs: number): Promise<void>;
  /** Uncaught errors of the page and its workers, and their console errors. */
  errors: string[];
}

export interface BareChromium {
  newPage(url: string, options: { width: number; height: number; initScripts: string[] }): Promise<BarePage>;
  /** Records Chromium's trace of `categories` until the returned function is called, which writes it to `path`. */
  trace(path: string, categories: string[]): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export async function launchBareChromium(executable: string, args: string[] = []): Promise<BareChromium> {
  const profile = mkdtempSync(join(tmpdir(), 'vigil-bench-chromium-'));
  const child: ChildProcess = spawn(executable, ['--headless', '--remote-debugging-pipe', `--user-data-dir=${profile}`, '--no-first-run', ...args, 'about:blank'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
  });
  const toBrowser = child.stdio[3] as Writable;
  const fromBrowser = child.stdio[4] as Readable;
  let last = 0;
  const waiting = new Map<number, { resolve(result: Result): void; reject(error: Error): void }>();
  const listeners = new Map<string, Set<Listener>>();
  let pending = '';
  fromBrowser.setEncoding('utf8');
  fromBrowser.on('data', (chunk: string) => {
    const messages = (pending + chunk).split('\0');
    pending = messages.pop() ?? '';
    for (const text of messages) {
      const message = JSON.parse(text) as { id?: number; result?: Result; error?: { message: string }; method?: string; params?: Params; sessionId?: string };
      if (message.id !== undefined) {
        const call = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.error) call?.reject(new Error(message.error.message));
        else call?.resolve(message.result);
      } else if (message.method) for (const listener of listeners.get(message.method) ?? []) listener(message.params ?? {}, message.sessionId);
    }
  });
  const send = (method: string, params: Params = {}, sessionId?: string): Promise<Result> =>
    new Promise((resolve, reject) => {
      const id = ++last;
      waiting.set(id, { resolve, reject });
      toBrowser.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  const on = (method: string, listener: Listener) => {
    if (!listeners.has(method)) listeners.set(method, new Set());
    listeners.get(method)?.add(listener);
  };

  return {
    async newPage(url, { width, height, initScripts }) {
      const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
      const page = (method: string, params?: Params) => send(method, params, sessionId);
      const errors: string[] = [];
      // Errors of the page and of the workers it starts (each attached as its own session, resumed at once).
      const sessions = new Set([sessionId]);
      on('Target.attachedToTarget', (params, parent) => {
        if (!parent || !sessions.has(parent)) return;
        const child = (params.sessionId as string) ?? '';
        sessions.add(child);
        void send('Runtime.enable', {}, child).then(() => send('Runtime.runIfWaitingForDebugger', {}, child));
      });
      on('Runtime.exceptionThrown', (params, from) => {
        if (!from || !sessions.has(from)) return;
        const details = params.exceptionDetails as { text: string; exception?: { description?: string } };
        errors.push(details.exception?.description ?? details.text);
      });
      on('Runtime.consoleAPICalled', (params, from) => {
        if (from && sessions.has(from) && params.type === 'error') errors.push(`console: ${JSON.stringify(params.args)}`);
      });
      await page('Runtime.enable');
      await page('Page.enable');
      await page('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: true });
      await page('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
      for (const source of initScripts) await page('Page.addScriptToEvaluateOnNewDocument', { source });
      await page('Page.navigate', { url });
      const evaluate = async <T, A>(fn: (arg: A) => T | Promise<T>, arg?: A): Promise<T> => {
        const { result, exceptionDetails } = await page('Runtime.evaluate', { expression: `(${fn.toString()})(${JSON.stringify(arg ?? null)})`, awaitPromise: true, returnByValue: true });
        if (exceptionDetails) throw new Error(`in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
        return result.value as T;
      };
      return {
        send: page,
        evaluate,
        async waitFor(fn, timeoutMs) {
          const until = Date.now() + timeoutMs;
          while (!(await evaluate(fn).catch(() => false))) {
            if (Date.now() > until) throw new Error(`the page did not get there within ${timeoutMs} ms: ${fn.toString()}`);
            await new Promise((resolve) => setTimeout(resolve, 100));
          }
        },
        errors,
      };
    },
    async trace(path, categories) {
      await send('Tracing.start', { categories: categories.join(','), transferMode: 'ReturnAsStream' });
      return async () => {
        const complete = new Promise<string>((resolve) => on('Tracing.tracingComplete', (params) => resolve(params.stream as string)));
        await send('Tracing.end');
        const stream = await complete;
        let text = '';
        for (let chunk = await send('IO.read', { handle: stream }); ; chunk = await send('IO.read', { handle: stream })) {
          text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
          if (chunk.eof) break;
        }
        await send('IO.close', { handle: stream });
        writeFileSync(path, text);
      };
    },
    async close() {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      void send('Browser.close').catch(() => undefined);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      child.kill('SIGKILL');
      await exited;
      rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}
