import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from './stores';

/**
 * A line that says how fast this machine is, printed before a benchmark's figures: the same code measured 1.3k and
 * 0.67k req/s on two days' machines of the same kind (docs/benchmarks.md), so a figure means little without it.
 * Two quick probes of what the server spends its time on: one core's JSON work on a gateway message, and the
 * latency of a durable 4 KB write (what a commit waits for).
 */
export function describeMachine(): string {
  return `machine: ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${jsonRate().toFixed(1)}k gateway messages/s parsed and written per core, 4 KB fdatasync p50 ${fsyncMs().toFixed(2)} ms`;
}

function jsonRate(): number {
  const values = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, i * 1.234]));
  const message = JSON.stringify({ ts: Date.now(), devices: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`DEV-${i}`, values])) });
  let count = 0;
  const started = performance.now();
  while (performance.now() - started < 500) {
    for (let i = 0; i < 100; i++) JSON.stringify(JSON.parse(message));
    count += 100;
  }
  return count / (performance.now() - started);
}

function fsyncMs(): number {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-machine-'));
  const fd = openSync(join(dir, 'probe'), 'w');
  const block = Buffer.alloc(4096, 7);
  const spent: number[] = [];
  try {
    for (let i = 0; i < 100; i++) {
      const started = performance.now();
      writeSync(fd, block, 0, block.length, i * block.length);
      fdatasyncSync(fd);
      spent.push(performance.now() - started);
    }
  } finally {
    closeSync(fd);
    rmSync(dir, { recursive: true, force: true });
  }
  return percentile(spent.sort((a, b) => a - b), 50);
}
