import { describe, expect, it } from 'vitest';
import { allowed, covers, type Identity } from '../../server/ingest/topics';

const device: Identity = { tenantId: '100001', username: 'dev-1', clientId: 'INC-01', clientType: 1, isSuperuser: false };
const app: Identity = { ...device, username: 'app', clientId: 'app-1', clientType: 3 };

describe('MQTT topic rules', () => {
  it('matches filters the MQTT way', () => {
    expect(covers('a/+/c', 'a/b/c')).toBe(true);
    expect(covers('a/#', 'a/b/c')).toBe(true);
    expect(covers('a/#', 'a')).toBe(true); // '#' also matches the parent level (MQTT 3.1.1 §4.7.1.2)
    expect(covers('a/+', 'a/b/c')).toBe(false);
    expect(covers('a/+/c', 'a/+/c')).toBe(true);
    expect(covers('a/+/c', 'a/#')).toBe(false);
    expect(covers('a/b', 'a/+')).toBe(false);
  });

  it('gives a device its own data, reply and command topics only', () => {
    expect(allowed(device, 'publish', 'vigil/100001/device/INC-01/data', [])).toBe(true);
    expect(allowed(device, 'publish', 'vigil/100001/device/INC-02/data', [])).toBe(false);
    expect(allowed(device, 'subscribe', 'vigil/100001/device/INC-01/command', [])).toBe(true);
    expect(allowed(device, 'subscribe', 'vigil/100001/device/+/command', [])).toBe(false);
    expect(allowed(device, 'publish', 'vigil/100001/device/INC-01/command', [])).toBe(false);
  });

  it('never lets an identity out of its tenant, whatever its rules', () => {
    const rules = [{ username: null, topic: '#', action: 3, allow: true }];
    expect(allowed({ ...app, isSuperuser: true }, 'subscribe', 'vigil/000000/#', rules)).toBe(false);
    expect(allowed(app, 'subscribe', '#', rules)).toBe(false);
    expect(allowed(app, 'subscribe', 'vigil/100001/#', [])).toBe(true);
  });

  it('applies explicit rules first, in order, then the defaults', () => {
    const deny = { username: 'dev-1', topic: 'vigil/%t/device/%c/data', action: 2, allow: false };
    const extra = { username: null, topic: 'vigil/%t/device/%c/debug', action: 3, allow: true };
    expect(allowed(device, 'publish', 'vigil/100001/device/INC-01/data', [deny])).toBe(false);
    expect(allowed(device, 'publish', 'vigil/100001/device/INC-01/debug', [extra])).toBe(true);
    expect(allowed(device, 'publish', 'vigil/100001/device/INC-01/debug', [])).toBe(false);
  });

  it('refuses placeholder values that would widen a rule', () => {
    const sneaky: Identity = { ...device, clientId: '#' };
    expect(allowed(sneaky, 'subscribe', 'vigil/100001/device/#/command', [])).toBe(false);
    expect(allowed(sneaky, 'publish', 'vigil/100001/device/x/data', [])).toBe(false);
  });
});
