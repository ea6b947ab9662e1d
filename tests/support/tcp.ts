import { readFileSync } from 'node:fs';

/** A TCP connection of this machine as the kernel lists it in /proc/net/tcp (IPv4). */
export interface KernelSocket {
  localPort: number;
  remotePort: number;
  /** `01` established, `06` TIME_WAIT, … (include/net/tcp_states.h, in hex). */
  state: string;
  /** The timer armed: 0 none, 1 retransmit, 2 keep-alive, 3 TIME_WAIT, 4 zero-window probe. */
  timer: number;
  /** Clock ticks (USER_HZ, 100 a second) until it fires. */
  timerTicks: number;
}

/** Every IPv4 TCP connection the kernel holds now. */
export function kernelSockets(): KernelSocket[] {
  const port = (address: string) => Number.parseInt(address.split(':')[1], 16);
  return readFileSync('/proc/net/tcp', 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((row) => {
      const [, local, remote, state, , timer] = row.trim().split(/\s+/);
      const [kind, when] = timer.split(':');
      return { localPort: port(local), remotePort: port(remote), state, timer: Number.parseInt(kind, 16), timerTicks: Number.parseInt(when, 16) };
    });
}

/** Connections between local `port` and the local `peers` that the kernel keeps in TIME_WAIT. */
export function inTimeWait(port: number, peers: number[]): number {
  return kernelSockets().filter((s) => s.state === '06' && s.localPort === port && peers.includes(s.remotePort)).length;
}
