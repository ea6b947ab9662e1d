import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A port for a process about to be started (a server, Redis, Mosquitto), free on 127.0.0.1 now.
 *
 * Not `listen(0)`'s: that port comes from the kernel's ephemeral range, and once the probe frees it the kernel may give
 * it to any outgoing connection as its source port before the child binds it — with the suite's thousands of client
 * connections it did (CI: `listen EADDRINUSE` on a port just probed). Ports below that range are never handed out so.
 * Each vitest worker draws from its own slice of them, at random, so that files running side by side do not pick the same.
 */
const SLICES = 16;
const LOWEST = 10_000;
const handedOut = new Set<number>();

export async function freePort(): Promise<number> {
  // A machine whose ephemeral range starts low leaves few ports below it: the slices then reach into the range, and
  // the probe alone answers for the port.
  const width = Math.floor((Math.max(ephemeralLow(), LOWEST + SLICES * 256) - LOWEST) / SLICES);
  const start = LOWEST + (Number(process.env.VITEST_POOL_ID ?? 0) % SLICES) * width;
  for (let tries = 0; tries < 100; tries++) {
    const port = start + randomInt(width);
    if (handedOut.has(port) || !(await bindable(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port in ${start}-${start + width - 1}`);
}

/** The kernel's lowest ephemeral port (32768 by default). */
function ephemeralLow(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
