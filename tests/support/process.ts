import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BUILT_SERVER, builtOnce } from '../../tools/build-server';

/**
 * The real server as a process of its own (`node --import tsx server/main.ts`, or the build a deployment runs,
 * build/server.mjs): for signals, kill -9 and restarts.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export { freePort } from '../../tools/free-port';

export interface ServerProcess {
  child: ChildProcess;
  output: string[];
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** With `logFile`: resolves once the process has exited and the file holds everything it wrote. */
  logged: Promise<void>;
}

/**
 * Starts the server with `env` (over the test's own, without its store or broker), resolved once it is running.
 * `logFile`: its stdout and stderr are written there too, whole, as a deployment's log collector would keep them.
 */
export async function startProcess(env: Record<string, string>, options: { logFile?: string; built?: boolean } = {}): Promise<ServerProcess> {
  const { DATABASE_URL: _db, MQTT_URL: _mqtt, REDIS_URL: _redis, METRICS_TOKEN: _metrics, ...inherited } = process.env;
  if (options.built) await builtOnce();
  const entry = options.built ? [...BUILT_SERVER] : ['--import', 'tsx', 'server/main.ts'];
  const child = spawn(process.execPath, entry, { cwd: ROOT, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  let logged = Promise.resolve();
  if (options.logFile) {
    const file = createWriteStream(options.logFile);
    child.stdout?.pipe(file, { end: false });
    child.stderr?.pipe(file, { end: false });
    // 'close' comes once both streams have ended: then the file is ended and flushed.
    logged = new Promise<void>((resolve) => child.once('close', () => file.end(() => resolve())));
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join('').includes('Vigil is running')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    void exited.then(({ code }) => reject(new Error(`the server exited (${code}) before it was running:\n${output.join('')}`)));
  });
  return { child, output, exited, logged };
}

/**
 * Sends SIGTERM and waits for the exit, failing past `bound` ms rather than waiting for the test's time-out (the old
 * server kept serving for 45 s). Exit code 0 is what proves a clean drain: the 10 s hard limit exits with 1.
 */
export async function terminate(server: ServerProcess, bound: number) {
  server.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no exit within ${bound} ms:\n${server.output.join('')}`)), bound);
  });
  try {
    return await Promise.race([server.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** kill -9: the process ends where it stands, nothing flushed or closed. */
export async function kill(server: ServerProcess) {
  server.child.kill('SIGKILL');
  return server.exited;
}
