/**
 * Snowflake ids as decimal strings: 41 bits of milliseconds since 2020-01-01, 10 bits of worker, 12 bits of
 * sequence. Strings because they exceed 2^53 and the contract serialises ids as strings.
 */
const EPOCH = 1577836800000n;
let worker = BigInt(process.pid % 1024);
let lastMs = -1n;
let sequence = 0n;

export function setWorkerId(id: number): void {
  worker = BigInt(id % 1024);
}

export function nextId(): string {
  let now = BigInt(Date.now());
  if (now < lastMs) now = lastMs; // clock went back: keep counting on the last millisecond
  if (now === lastMs) {
    sequence = (sequence + 1n) & 0xfffn;
    if (sequence === 0n) now = lastMs + 1n; // sequence exhausted: borrow the next millisecond
  } else {
    sequence = 0n;
  }
  lastMs = now;
  return (((now - EPOCH) << 22n) | (worker << 12n) | sequence).toString();
}
