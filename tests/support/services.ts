import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './process';

/**
 * Services a suite starts for itself from the binaries on the machine, on free ports, and stops again: a Redis and a
 * Mosquitto of its own, so a suite can stop or restart them without touching the machine's.
 */
export interface Service {
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** Whether a binary is on the PATH. */
export function hasBinary(name: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Spawns `command` and resolves once a line of its output matches `ready`. */
async function spawnUntil(command: string, args: string[], ready: RegExp): Promise<ChildProcess> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      seen += chunk.toString();
      if (ready.test(seen)) resolve();
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', look);
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}) before it was ready:\n${seen}`)));
  });
  return child;
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A redis-server that keeps nothing on disk. */
export async function startRedis(): Promise<Service> {
  const port = await freePort();
  const child = await spawnUntil('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], /Ready to accept connections/);
  return { url: `redis://127.0.0.1:${port}`, port, stop: () => stopped(child) };
}

/**
 * A Mosquitto for a deployment (deploy/mosquitto/mosquitto.conf has the same limits): anonymous clients, and no cap on
 * the messages queued for a session while its process is away, or in flight to one — Mosquitto's defaults (1000
 * queued, 20 in flight) would drop readings a restarting process has not taken yet.
 */
export async function startMosquitto(): Promise<Service> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'vigil-mosquitto-'));
  const config = join(dir, 'mosquitto.conf');
  writeFileSync(config, [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'max_queued_messages 0', 'max_inflight_messages 0', 'persistence false', 'log_type error', 'log_type warning', 'log_type notice', 'log_type information', 'log_dest stderr', ''].join('\n'));
  const child = await spawnUntil('mosquitto', ['-c', config], /running/);
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    stop: async () => {
      await stopped(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
