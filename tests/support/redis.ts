import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from './process';

/** A redis-server of the test's own, on a free loopback port, with nothing saved to disk. */
export interface TestRedis {
  url: string;
  stop(): Promise<void>;
}

const BINARY = process.env.REDIS_SERVER_PATH ?? 'redis-server';

/** Whether the `redis-server` binary is there (Debian's redis-server package); warns when it is not. */
export function redisServerAvailable(what: string): boolean {
  const probe = spawnSync(BINARY, ['--version'], { encoding: 'utf8' });
  if (probe.status === 0) return true;
  console.warn(`redis-server is not installed (${BINARY}): ${what} is skipped.`);
  return false;
}

/** Starts redis-server and resolves once it accepts connections. */
export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(BINARY, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const seen = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (output.join('').includes('Ready to accept connections')) resolve();
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output.join('')}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
