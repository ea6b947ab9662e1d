// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig, MQTT_CONNECT_RATE } from '../../server/config';
import { Admission } from '../../server/ingest/admission';

/** A connection as the admission sees one: whether it is gone, and its end (its socket is the broker's to open). */
const fakeArrival = (name: string) => ({ name, destroyed: false, destroy() { this.destroyed = true; }, open: () => { throw new Error('opened by the admission'); } });
type Fake = ReturnType<typeof fakeArrival>;

/** The broker's pacing of new connections (server/ingest/admission.ts), on a clock the test moves. */
describe('admission of new MQTT connections', () => {
  let clock = 0;
  let admitted: string[] = [];
  beforeEach(() => {
    vi.useFakeTimers();
    clock = 0;
    behind = false;
    admitted = [];
  });
  afterEach(() => vi.useRealTimers());
  let behind = false;
  /** At the full rate from the first connection (no slow start) unless asked. */
  const admission = (perSecond: number, slowStartMs = 0) => new Admission(perSecond, (arrival) => admitted.push((arrival as Fake).name), () => clock, () => behind, slowStartMs);
  const offer = (target: Admission, sockets: Fake[]) => {
    for (const socket of sockets) target.offer(socket);
  };
  const burst = (count: number, from = 0) => Array.from({ length: count }, (_, i) => fakeArrival(`s${from + i}`));
  /** Moves the clock and the timers together. */
  const advance = (ms: number) => {
    clock += ms;
    vi.advanceTimersByTime(ms);
  };

  it('lets a burst in at the rate, a few at each 5-ms tick, oldest first', () => {
    const pacer = admission(1000); // 20 ms worth at once, then 5 per tick
    offer(pacer, burst(32));
    expect(admitted).toEqual(burst(20).map((s) => s.name));
    expect(pacer.waiting).toBe(12);
    advance(5);
    expect(admitted).toHaveLength(25);
    expect(pacer.waiting).toBe(7);
    advance(5);
    expect(admitted).toHaveLength(30);
    advance(5);
    expect(admitted).toEqual(burst(32).map((s) => s.name));
    expect(pacer.waiting).toBe(0);
    // Nothing left to let in, nothing keeps ticking.
    expect(vi.getTimerCount()).toBe(0);
  });

  it('starts slowly: a quarter of the rate at the first connection, rising to all of it over the slow start', () => {
    const pacer = admission(1000, 3000);
    offer(pacer, burst(5000));
    const inFirst = (ms: number) => {
      const before = admitted.length;
      for (let t = 0; t < ms; t += 5) advance(5);
      return admitted.length - before;
    };
    // 20 ms worth at once, then 250-500/s over the first second (375), 1,000/s once the 3 s are over.
    expect(admitted).toHaveLength(20);
    const first = inFirst(1000);
    expect(first).toBeGreaterThan(340);
    expect(first).toBeLessThan(410);
    inFirst(2000);
    expect(inFirst(1000)).toBe(1000);
  });

  it('saves no more than 20 ms worth while idle: a burst after a quiet hour is paced too', () => {
    const pacer = admission(1000);
    clock += 3_600_000;
    offer(pacer, burst(30));
    expect(admitted).toHaveLength(20);
  });

  it('loses none of the rate to a tick that fires late', () => {
    const pacer = admission(1000);
    offer(pacer, burst(60));
    // The event loop busy for 15 ms: the tick due at 5 ms runs at 15 and lets in the 15 ms since.
    clock += 15;
    vi.advanceTimersByTime(5);
    expect(admitted).toHaveLength(35);
  });

  it('spends no turn on a socket that went away while waiting, and ends one that waited past a device’s patience', () => {
    const pacer = admission(50); // 1 per 20 ms
    const sockets = burst(4);
    offer(pacer, sockets);
    expect(admitted).toEqual(['s0']);
    sockets[1].destroyed = true;
    advance(20);
    expect(admitted).toEqual(['s0', 's2']);
    // s3 has waited exactly 30 s: still let in. s4, a millisecond longer: ended unread (the clock alone moved here).
    const late = fakeArrival('s4');
    offer(pacer, [late]); // at 20 ms
    clock = 30_000;
    pacer.drain();
    expect(admitted).toEqual(['s0', 's2', 's3']);
    expect(sockets[3].destroyed).toBe(false);
    clock = 30_021;
    pacer.drain();
    expect(admitted).toEqual(['s0', 's2', 's3']);
    expect(late.destroyed).toBe(true);
    expect(pacer.waiting).toBe(0);
  });

  it('lets nobody in while ingestion is behind, then the waiting ones at the rate from where it caught up', () => {
    const pacer = admission(1000);
    offer(pacer, burst(5));
    behind = true;
    offer(pacer, burst(30, 5));
    advance(100);
    expect(admitted).toEqual(burst(5).map((s) => s.name));
    expect(pacer.waiting).toBe(30);
    // Caught up: the bucket holds no more than 20 ms worth, however long the hold lasted.
    behind = false;
    advance(5);
    expect(admitted).toEqual(burst(25).map((s) => s.name));
    advance(5);
    expect(admitted).toHaveLength(30);
    // Behind again: the queue waits, and ticks on to look again.
    behind = true;
    advance(50);
    expect(admitted).toHaveLength(30);
    expect(vi.getTimerCount()).toBe(1);
    behind = false;
    advance(10);
    expect(admitted).toEqual(burst(35).map((s) => s.name));
  });

  it('counts the time connections waited because ingestion was behind, not their waits for the rate', () => {
    const pacer = admission(1000);
    offer(pacer, burst(40));
    advance(5);
    expect(pacer.waiting).toBe(15);
    expect(pacer.heldMs).toBe(0);
    behind = true;
    advance(5);
    advance(30);
    expect(pacer.heldMs).toBe(30);
    behind = false;
    advance(5);
    expect(pacer.heldMs).toBe(35);
    advance(100);
    expect(pacer.waiting).toBe(0);
    // Behind with nobody waiting holds nobody.
    behind = true;
    pacer.drain();
    clock += 1000;
    expect(pacer.heldMs).toBe(35);
    offer(pacer, burst(1, 40));
    advance(10);
    expect(pacer.heldMs).toBe(45);
    pacer.stop();
    clock += 1000;
    expect(pacer.heldMs).toBe(45);
  });

  it('lets every connection in at once with no rate, and once stopped looks no more and ends the ones waiting', () => {
    const open = admission(0);
    expect(open.pacing).toBe(false);
    offer(open, burst(50));
    expect(admitted).toHaveLength(50);

    admitted = [];
    const pacer = admission(50);
    const sockets = burst(3);
    offer(pacer, sockets);
    pacer.stop();
    advance(100);
    expect(admitted).toEqual(['s0']);
    expect(sockets.map((s) => s.destroyed)).toEqual([false, true, true]);
    expect(pacer.waiting).toBe(0);
  });

  describe('MQTT_CONNECT_RATE', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-admission-config-'));
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
    const load = (env: Record<string, string>) => loadConfig({ LOG_LEVEL: 'silent', ...env }, { dataDir, jwtSecret: 'x' });

    it('defaults to the measured rate; 0 turns it off; anything else stops the start', () => {
      expect(load({}).mqttConnectRate).toBe(MQTT_CONNECT_RATE);
      expect(load({ MQTT_CONNECT_RATE: '0' }).mqttConnectRate).toBe(0);
      expect(load({ MQTT_CONNECT_RATE: '500' }).mqttConnectRate).toBe(500);
      for (const bad of ['-1', '2.5', 'fast']) expect(() => load({ MQTT_CONNECT_RATE: bad })).toThrow(`MQTT_CONNECT_RATE must be a whole number, got "${bad}"`);
    });
  });
});
