// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config';
import { addressKind, inCidr, parseAddress, parseCidr } from '../../server/net/addresses';
import { OutboundGuard, OutboundRefused, refusalOf } from '../../server/net/outbound';

/** The outbound guard (server/net/outbound.ts): the address classifier, the allow switches, and real connections it stops. */

const REFUSED = /指向内网或本机,已拒绝 \(OUTBOUND_ALLOW_PRIVATE\)/;
const guarded = new OutboundGuard({ allowPrivate: false, allow: [] });

describe('address classifier', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456:789a::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['100.64.0.1', 'shared'],
    ['100.100.100.200', 'shared'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    // IPv4 inside IPv6: mapped (both spellings), compatible, NAT64.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['[::ffff:169.254.169.254]', 'link-local'],
    ['::ffff:10.0.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['localhost', 'invalid'],
    ['', 'invalid'],
  ])('%s is %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it.each(['8.8.8.8', '1.1.1.1', '11.0.0.1', '172.15.255.255', '172.32.0.1', '100.63.255.255', '100.128.0.1', '169.255.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(addressKind(address)).toBeUndefined();
    },
  );

  it('parses ranges of both families and single addresses', () => {
    const ten = parseCidr('10.0.0.0/8');
    expect(ten?.prefix).toBe(104);
    expect(inCidr(parseAddress('10.200.1.1') as Uint8Array, ten!)).toBe(true);
    expect(inCidr(parseAddress('::ffff:10.200.1.1') as Uint8Array, ten!)).toBe(true);
    expect(inCidr(parseAddress('11.0.0.1') as Uint8Array, ten!)).toBe(false);
    expect(inCidr(parseAddress('172.20.0.1') as Uint8Array, parseCidr('172.16.0.0/12')!)).toBe(true);
    expect(inCidr(parseAddress('fd00::5') as Uint8Array, parseCidr('fd00::/8')!)).toBe(true);
    expect(parseCidr('192.168.1.5')?.prefix).toBe(128);
    for (const bad of ['10.0.0.0/33', '::/129', 'x/8', '10.0.0.0/8/1', '10.0.0.0/', '10.0.0.0/a', 'example.com']) expect(parseCidr(bad), bad).toBeUndefined();
  });
});

describe('allow switches', () => {
  it('refuses every non-public address by default, lets allowed ranges through, or everything with allowPrivate', () => {
    expect(['127.0.0.1', '10.1.2.3', '169.254.169.254', '::1', '::ffff:10.1.2.3'].every((a) => guarded.refuses(a))).toBe(true);
    expect(guarded.refuses('8.8.8.8')).toBe(false);
    const ranges = new OutboundGuard({ allowPrivate: false, allow: ['10.0.0.0/8', '192.168.1.5'] });
    expect(ranges.refuses('10.1.2.3')).toBe(false);
    expect(ranges.refuses('::ffff:10.1.2.3')).toBe(false);
    expect(ranges.refuses('192.168.1.5')).toBe(false);
    expect(ranges.refuses('192.168.1.6')).toBe(true);
    expect(ranges.refuses('127.0.0.1')).toBe(true);
    const open = new OutboundGuard({ allowPrivate: true, allow: [] });
    expect(['127.0.0.1', '169.254.169.254', '::1'].some((a) => open.refuses(a))).toBe(false);
  });

  it('reads OUTBOUND_ALLOW_PRIVATE and OUTBOUND_ALLOW, and stops the start on a typo', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-outbound-'));
    const load = (env: Record<string, string>) => loadConfig({ LOG_LEVEL: 'silent', ...env }, { dataDir, jwtSecret: 'x' }).outbound;
    try {
      expect(load({})).toEqual({ allowPrivate: false, allow: [] });
      expect(load({ OUTBOUND_ALLOW_PRIVATE: '1' }).allowPrivate).toBe(true);
      expect(load({ OUTBOUND_ALLOW_PRIVATE: 'false' }).allowPrivate).toBe(false);
      expect(load({ OUTBOUND_ALLOW: ' 10.0.0.0/8, fd00::/8 ,' }).allow).toEqual(['10.0.0.0/8', 'fd00::/8']);
      expect(() => load({ OUTBOUND_ALLOW: '10.0.0.0/8,intranet' })).toThrow(/OUTBOUND_ALLOW/);
      expect(() => load({ OUTBOUND_ALLOW_PRIVATE: 'yes' })).toThrow(/OUTBOUND_ALLOW_PRIVATE/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('outbound guard', () => {
  it('judges a URL when it is saved: literal hosts, names resolved, numeric spellings', async () => {
    for (const url of ['http://127.0.0.1:5432', 'http://169.254.169.254/latest/meta-data', 'http://localhost:8080/', 'mqtt://[::1]:1883', 'http://[::ffff:127.0.0.1]/', 'http://2130706433/', 'mqtt://2130706433:1883', 'ws://10.0.0.8/mqtt', 'https://192.168.1.1']) {
      expect(await guarded.problemOf(url), url).toMatch(REFUSED);
    }
    expect(await guarded.problemOf('http://localhost:8080/')).toBe('目标地址 localhost 指向内网或本机,已拒绝 (OUTBOUND_ALLOW_PRIVATE)');
    expect(await guarded.problemOf('https://8.8.8.8/push')).toBeUndefined();
    // A name that does not resolve now is left to the connection (judged again there).
    expect(await guarded.problemOf('http://no-such-host.invalid/')).toBeUndefined();
    expect(await new OutboundGuard({ allowPrivate: true, allow: [] }).problemOf('http://127.0.0.1/')).toBeUndefined();
  });

  it('judges a bare host (an SMTP server) the same way', async () => {
    for (const host of ['127.0.0.1', 'localhost', '::1', '[::1]', ' 10.1.2.3 ', '169.254.169.254']) expect(await guarded.hostProblem(host), host).toMatch(REFUSED);
    expect(await guarded.hostProblem('localhost')).toBe('目标地址 localhost 指向内网或本机,已拒绝 (OUTBOUND_ALLOW_PRIVATE)');
    for (const host of ['8.8.8.8', 'smtp.example.invalid', '']) expect(await guarded.hostProblem(host), host).toBeUndefined();
  });

  it('resolves names for connections and refuses a name with a private address', async () => {
    const lookup = (guard: OutboundGuard, all: boolean) =>
      new Promise<{ error: Error | null; address: unknown }>((resolve) => guard.lookup('localhost', { all }, (error, address) => resolve({ error, address })));
    const refused = await lookup(guarded, false);
    expect(refused.error).toBeInstanceOf(OutboundRefused);
    expect(refused.error?.message).toMatch(REFUSED);
    const open = new OutboundGuard({ allowPrivate: false, allow: ['127.0.0.0/8', '::1'] });
    expect((await lookup(open, false)).address).toBe('127.0.0.1');
    expect((await lookup(open, true)).address).toEqual([expect.objectContaining({ address: '127.0.0.1' })]);
  });

  it('finds a refusal wrapped as a cause', () => {
    const refusal = new OutboundRefused('localhost');
    expect(refusalOf(new TypeError('fetch failed', { cause: refusal }))).toBe(refusal);
    expect(refusalOf(new Error('other'))).toBeUndefined();
  });

  describe('on real sockets', () => {
    let server: Server;
    let port = 0;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((socket) => {
        connections += 1;
        socket.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('never connects to a refused address over HTTP, whether literal or a name', async () => {
      for (const url of [`http://127.0.0.1:${port}/`, `http://localhost:${port}/`, `http://[::ffff:127.0.0.1]:${port}/`]) {
        const error = await guarded.fetch(url, { method: 'POST', body: '{}' }).then(
          () => undefined,
          (e: unknown) => e,
        );
        // The refusal itself, not undici's `fetch failed` around it.
        expect(error, url).toBeInstanceOf(OutboundRefused);
        expect((error as Error).message, url).toMatch(REFUSED);
      }
      expect(connections).toBe(0);
    });

    it('never connects to a refused SMTP server: the socket nodemailer is given comes through the guard', async () => {
      const socketFor = (host: string) =>
        new Promise<Error | null>((resolve) => guarded.smtpSocket({ host, port, connectionTimeout: 2000 }, (error, socket) => {
          socket?.connection.destroy();
          resolve(error);
        }));
      for (const host of ['127.0.0.1', '::1', 'localhost']) expect((await socketFor(host))?.message, host).toMatch(REFUSED);
      expect(() => guarded.connect('[::ffff:127.0.0.1]', port)).toThrow(OutboundRefused);
      expect(connections).toBe(0);
    });

    it('never connects to a refused MQTT broker: a literal address at once, a name when it is resolved', async () => {
      expect(() => guarded.mqtt(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 })).toThrow(OutboundRefused);
      expect(() => guarded.mqtt(`ws://[::1]:${port}/mqtt`, { reconnectPeriod: 0 })).toThrow(OutboundRefused);
      for (const url of [`mqtt://localhost:${port}`, `mqtts://localhost:${port}`, `ws://localhost:${port}/mqtt`]) {
        const client = guarded.mqtt(url, { reconnectPeriod: 0, connectTimeout: 2000 });
        const error = await new Promise<Error>((resolve) => client.once('error', resolve));
        await client.endAsync(true);
        expect(refusalOf(error)?.message, url).toMatch(REFUSED);
      }
      expect(connections).toBe(0);
    });

    it('connects when the range is allowed', async () => {
      const open = new OutboundGuard({ allowPrivate: false, allow: ['127.0.0.0/8'] });
      const client = open.mqtt(`mqtt://localhost:${port}`, { reconnectPeriod: 0, connectTimeout: 2000 });
      await new Promise<void>((resolve) => client.once('close', () => resolve()));
      await client.endAsync(true);
      await expect.poll(() => connections).toBe(1);
      const smtp = await new Promise<{ connection: Socket } | undefined>((resolve, reject) =>
        open.smtpSocket({ host: 'localhost', port }, (error, socket) => (error ? reject(error) : resolve(socket))),
      );
      smtp?.connection.destroy();
      await expect.poll(() => connections).toBe(2);
    });
  });
});
