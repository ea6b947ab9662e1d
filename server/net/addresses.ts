import { isIP } from 'node:net';

/**
 * IP addresses and ranges for the outbound guard (server/net/outbound.ts). Every address is held as 16 bytes, IPv4 in
 * its IPv4-mapped IPv6 form (::ffff:a.b.c.d), so one range table covers both families and a mapped, compatible or
 * NAT64 form of 127.0.0.1 is judged as 127.0.0.1.
 */

/** Why an address is not a public one. */
export type AddressKind = 'unspecified' | 'loopback' | 'private' | 'link-local' | 'shared' | 'multicast' | 'reserved' | 'invalid';

export interface Cidr {
  bytes: Uint8Array;
  /** Prefix length over the 16 bytes (an IPv4 /8 is /104). */
  prefix: number;
}

const unbracket = (text: string) => text.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');

function v4Bytes(text: string): number[] {
  return text.split('.').map(Number);
}

function v6Bytes(text: string): Uint8Array {
  const groups = (part: string): number[] =>
    part === ''
      ? []
      : part.split(':').flatMap((g) => {
          if (!g.includes('.')) return [parseInt(g, 16)];
          const [a, b, c, d] = v4Bytes(g);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head, tail] = text.split('::');
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const all = tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  return out;
}

const mapped = (v4: ArrayLike<number>) => Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...Array.from(v4)]);
const zeros = (bytes: Uint8Array, from: number, to: number) => bytes.subarray(from, to).every((b) => b === 0);

/**
 * An IPv6 address that carries an IPv4 one is taken as that IPv4 address: IPv4-compatible (::a.b.c.d, all of ::/96
 * but ::1, so :: is 0.0.0.0) and NAT64 (64:ff9b::a.b.c.d) become IPv4-mapped.
 */
function normalized(bytes: Uint8Array): Uint8Array {
  const tail = bytes.subarray(12);
  const compatible = zeros(bytes, 0, 12) && !(zeros(bytes, 12, 15) && bytes[15] === 1);
  const nat64 = bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zeros(bytes, 4, 12);
  return compatible || nat64 ? mapped(tail) : bytes;
}

/** The 16 bytes of an IP address (brackets and a zone id allowed), or undefined when it is not one. */
export function parseAddress(text: string): Uint8Array | undefined {
  const bare = unbracket(text.trim());
  const family = isIP(bare);
  if (family === 4) return mapped(v4Bytes(bare));
  if (family === 6) return normalized(v6Bytes(bare));
  return undefined;
}

/** `10.0.0.0/8`, `fd00::/8`, or one address (a /32 or /128). */
export function parseCidr(text: string): Cidr | undefined {
  const [address, length, extra] = text.trim().split('/');
  if (extra !== undefined) return undefined;
  const bytes = parseAddress(address);
  if (!bytes) return undefined;
  const v4 = isIP(unbracket(address)) === 4;
  const max = v4 ? 32 : 128;
  if (length !== undefined && !/^\d{1,3}$/.test(length)) return undefined;
  const bits = length === undefined ? max : Number(length);
  if (bits > max) return undefined;
  return { bytes, prefix: v4 ? bits + 96 : bits };
}

/** The ranges of OUTBOUND_ALLOW; throws on one that does not parse (config.ts reports it at start). */
export function allowedRanges(list: readonly string[]): Cidr[] {
  return list.map((text) => {
    const range = parseCidr(text);
    if (!range) throw new Error(`OUTBOUND_ALLOW: "${text}" is not an address or a CIDR range such as 10.0.0.0/8`);
    return range;
  });
}

export function inCidr(bytes: Uint8Array, cidr: Cidr): boolean {
  for (let bit = 0; bit < cidr.prefix; bit += 8) {
    const width = Math.min(8, cidr.prefix - bit);
    const mask = (0xff << (8 - width)) & 0xff;
    if ((bytes[bit / 8] & mask) !== (cidr.bytes[bit / 8] & mask)) return false;
  }
  return true;
}

const cidr = (text: string): Cidr => {
  const parsed = parseCidr(text);
  if (!parsed) throw new Error(`bad range ${text}`);
  return parsed;
};

/** Ranges a tenant's target may not reach; the first match names the kind. */
const RANGES: ReadonlyArray<readonly [Cidr, AddressKind]> = (
  [
    ['0.0.0.0/8', 'unspecified'],
    ['127.0.0.0/8', 'loopback'],
    ['10.0.0.0/8', 'private'],
    ['172.16.0.0/12', 'private'],
    ['192.168.0.0/16', 'private'],
    ['169.254.0.0/16', 'link-local'],
    // Carrier-grade NAT, also where some clouds put their metadata service (100.100.100.200).
    ['100.64.0.0/10', 'shared'],
    ['192.0.0.0/24', 'reserved'],
    ['198.18.0.0/15', 'reserved'],
    ['224.0.0.0/4', 'multicast'],
    ['240.0.0.0/4', 'reserved'],
    ['::/128', 'unspecified'],
    ['::1/128', 'loopback'],
    ['fc00::/7', 'private'],
    ['fec0::/10', 'private'],
    ['fe80::/10', 'link-local'],
    ['ff00::/8', 'multicast'],
  ] as const
).map(([range, kind]) => [cidr(range), kind] as const);

/** Why an address may not be reached (loopback, private …), or undefined for a public address. */
export function addressKind(address: string | Uint8Array): AddressKind | undefined {
  const bytes = typeof address === 'string' ? parseAddress(address) : address;
  if (!bytes) return 'invalid';
  return RANGES.find(([range]) => inCidr(bytes, range))?.[1];
}
