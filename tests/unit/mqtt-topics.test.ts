import { describe, expect, it } from 'vitest';
import { allowed, covers, type Identity } from '../../server/ingest/topics';

const device: Identity = { tenantId: '100001', username: 'dev-1', clientId: 'INC-01', clientType: 1, isSuperuser: false };
const gateway: Identity = { ...device, username: 'gw-1', clientId: 'GW-01', clientType: 2 };
const app: Identity = { ...device, username: 'app', clientId: 'app-1', clientType: 3 };
const rule = (topic: string, action: number, allow = true, username: string | null = null) => ({ username, topic, action, allow });

describe('MQTT topic rules', () => {
  it('matches filters the MQTT way', () => {
    expect(covers('a/+/c', 'a/b/c')).toBe(true);
    expect(covers('a/#', 'a/b/c')).toBe(true);
    expect(covers('a/#', 'a')).toBe(true); // '#' also matches the parent level (MQTT 3.1.1 §4.7.1.2)
    expect(covers('a/+', 'a/b/c')).toBe(false);
    expect(covers('a/+/c', 'a/+/c')).toBe(true);
    expect(covers('a/+/c', 'a/#')).toBe(false);
    expect(covers('a/b', 'a/+')).toBe(false);
    expect(covers('a/b/c', 'a/b')).toBe(false);
    expect(covers('a/b', 'a/b/c')).toBe(false);
    expect(covers('a/+/c', 'a/b/d')).toBe(false);
    expect(covers('+/+', 'a/b')).toBe(true);
    expect(covers('a/+', 'a')).toBe(false);
    // A rule for one level never grants a subscription to every level below it.
    expect(covers('a/+', 'a/#')).toBe(false);
  });

  it('gives a device its own data, reply and command topics only', () => {
    expect(allowed(device, 'publish', 'vigil/100001/device/INC-01/data', [])).toBe(true);
    expect(allowed(device, 'publish', 'vigil/100001/device/INC-02/data', [])).toBe(false);
    expect(allowed(device, 'subscribe', 'vigil/100001/device/INC-01/command', [])).toBe(true);
    expect(allowed(device, 'subscribe', 'vigil/100001/device/+/command', [])).toBe(false);
    expect(allowed(device, 'publish', 'vigil/100001/device/INC-01/command', [])).toBe(false);
    expect(allowed(device, 'publish', 'vigil/100001/device/INC-01/reply', [])).toBe(true);
    expect(allowed(device, 'subscribe', 'vigil/100001/device/INC-01/data', [])).toBe(false);
    expect(allowed(device, 'publish', 'vigil/100001/gateway/INC-01/data', [])).toBe(false);
  });

  it('gives a gateway its own gateway topics, and an application its tenant', () => {
    expect(allowed(gateway, 'publish', 'vigil/100001/gateway/GW-01/data', [])).toBe(true);
    expect(allowed(gateway, 'publish', 'vigil/100001/gateway/GW-01/reply', [])).toBe(true);
    expect(allowed(gateway, 'subscribe', 'vigil/100001/gateway/GW-01/command', [])).toBe(true);
    expect(allowed(gateway, 'publish', 'vigil/100001/device/GW-01/data', [])).toBe(false);
    expect(allowed(gateway, 'publish', 'vigil/100001/gateway/GW-02/data', [])).toBe(false);
    expect(allowed(gateway, 'subscribe', 'vigil/100001/gateway/GW-01/data', [])).toBe(false);
    expect(allowed(app, 'publish', 'vigil/100001/device/INC-01/command', [])).toBe(true);
    expect(allowed(app, 'publish', 'vigil/100001/device/INC-01/data', [])).toBe(false);
    expect(allowed(app, 'subscribe', 'vigil/100001/device/INC-01/data', [])).toBe(true);
    expect(allowed({ ...device, clientType: 9 }, 'publish', 'vigil/100001/device/INC-01/data', [])).toBe(false);
  });

  it('lets a superuser reach every topic of its tenant, after its explicit rules', () => {
    const root: Identity = { ...device, isSuperuser: true };
    expect(allowed(root, 'publish', 'vigil/100001/device/INC-02/data', [])).toBe(true);
    expect(allowed(root, 'subscribe', 'vigil/100001/#', [])).toBe(true);
    expect(allowed(root, 'publish', 'vigil/100001/device/INC-02/data', [rule('vigil/%t/device/+/data', 2, false)])).toBe(false);
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

  it("applies a rule to its action and its identity only, and expands the identity's placeholders", () => {
    const topic = 'vigil/100001/device/INC-01/debug';
    expect(allowed(device, 'publish', topic, [rule('vigil/%t/device/%c/debug', 1)])).toBe(false);
    expect(allowed(device, 'subscribe', topic, [rule('vigil/%t/device/%c/debug', 1)])).toBe(true);
    expect(allowed(device, 'subscribe', topic, [rule('vigil/%t/device/%c/debug', 2)])).toBe(false);
    expect(allowed(device, 'publish', topic, [rule('vigil/%t/device/%c/debug', 2)])).toBe(true);
    expect(allowed(device, 'publish', topic, [rule('vigil/%t/device/%c/debug', 3, true, 'someone-else')])).toBe(false);
    expect(allowed(device, 'publish', 'vigil/100001/user/dev-1/log', [rule('vigil/%t/user/%u/log', 2)])).toBe(true);
    expect(allowed(device, 'publish', 'vigil/100001/user/dev-2/log', [rule('vigil/%t/user/%u/log', 2)])).toBe(false);
    // The first matching rule decides, whether it allows or denies.
    expect(allowed(device, 'publish', topic, [rule('vigil/%t/#', 2), rule('vigil/%t/device/%c/debug', 2, false)])).toBe(true);
  });

  it('refuses placeholder values that would widen a rule', () => {
    const sneaky: Identity = { ...device, clientId: '#' };
    expect(allowed(sneaky, 'subscribe', 'vigil/100001/device/#/command', [])).toBe(false);
    expect(allowed(sneaky, 'publish', 'vigil/100001/device/x/data', [])).toBe(false);
    const slashed: Identity = { ...device, username: 'a/b' };
    expect(allowed(slashed, 'publish', 'vigil/100001/user/a/b/log', [rule('vigil/%t/user/%u/#', 2)])).toBe(false);
    const plus: Identity = { ...device, username: '+' };
    expect(allowed(plus, 'publish', 'vigil/100001/user/x/log', [rule('vigil/%t/user/%u/log', 2)])).toBe(false);
    // The refused placeholder becomes U+0000, which no topic may then match, even one that carries it.
    expect(allowed(sneaky, 'publish', 'vigil/100001/device/\u0000/data', [])).toBe(false);
    expect(allowed(sneaky, 'publish', 'vigil/100001/device//data', [])).toBe(false);
  });
});
