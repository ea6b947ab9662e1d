import { createHash, randomBytes } from 'node:crypto';
import { trendsOf } from '../../resources/iot/screen';
import type { ScreenLayout } from '../../resources/wire/screen';
import type { Db } from '../db/database';
import type { CallContext } from '../db/repository';
import type { EventBus } from '../events';
import { formatDateTime, parseDateTime } from '../time';
import type { Principal } from './principal';

/**
 * Display links (docs/wall-screen.md): the credential of a wall screen. Its secret is 32 random bytes, base64url,
 * made here and shown once; only its SHA-256 hash is stored (a secret of 256 random bits needs no slow hash: nobody
 * can guess one, hashed fast or slow). A request or socket naming a secret is answered from a cache of the lookup by
 * hash, dropped when links or tenants change here and at most CACHE_MS old, so another server process that revoked a
 * link is believed within seconds.
 */

/** The refusals of a display credential, each a 401. */
export const DISPLAY_MESSAGES = {
  missing: '缺少大屏链接凭证',
  unknown: '大屏链接无效',
  revoked: '大屏链接已撤销',
  expired: '大屏链接已过期',
  tenant: '大屏链接所属租户已停用或已过期',
} as const;

/** How long a looked-up link is believed without reading it again (changes made by this process drop it at once). */
const CACHE_MS = 5000;
/** Last seen time, address and agent are written at most this often per link. */
export const SEEN_EVERY_MS = 60_000;
const SECRET = /^[A-Za-z0-9_-]{43}$/;
const MAX_CACHED = 10_000;

/** A display link as the screen calls and sockets use it. */
export interface DisplayLink {
  id: string;
  tenantId: string;
  name: string;
  projectIds: string[];
  layout: ScreenLayout;
  rotateSeconds: number;
  trends: Record<string, string[]>;
  expiresAt: string | null;
}

/** A credential's verdict: the link and until when it holds (epoch ms; undefined: no end), or why it is refused. */
export type DisplayCheck = { link: DisplayLink; until: number | undefined } | { refused: string };

interface Found {
  link: DisplayLink;
  revoked: boolean;
  tenantStatus: number | undefined;
  tenantExpires: string | null;
}

/** A new secret, 32 random bytes in base64url (43 characters). */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** What is stored of a secret. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** A moment of the contract's date format as epoch ms; none (no end) as infinity. */
const endOf = (value: string | null): number => (value ? (parseDateTime(value)?.getTime() ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY);

export class DisplayLinks {
  /** The clock of the expiries, the cache and the last-seen record; tests move it instead of waiting. */
  now: () => number = Date.now;
  private readonly byHash = new Map<string, { found: Promise<Found | undefined>; at: number }>();
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly db: Db,
    events: EventBus,
    /** How many looked-up links the cache holds (only links found are kept); when full it starts again. */
    private readonly maxCached = MAX_CACHED,
  ) {
    events.whenChanged(['wit_display_link', 'blade_tenant'], () => this.byHash.clear());
  }

  /** The link a secret opens now, or the refusal. */
  async verify(secret: string | undefined): Promise<DisplayCheck> {
    if (!secret) return { refused: DISPLAY_MESSAGES.missing };
    if (!SECRET.test(secret)) return { refused: DISPLAY_MESSAGES.unknown };
    return this.verifyHash(hashSecret(secret));
  }

  /** The same, by the stored hash (the sockets keep the hash, never the secret). */
  async verifyHash(hash: string): Promise<DisplayCheck> {
    const found = await this.lookup(hash);
    if (!found) return { refused: DISPLAY_MESSAGES.unknown };
    if (found.revoked) return { refused: DISPLAY_MESSAGES.revoked };
    const now = this.now();
    const expires = endOf(found.link.expiresAt);
    if (expires <= now) return { refused: DISPLAY_MESSAGES.expired };
    const tenantExpires = endOf(found.tenantExpires);
    if (found.tenantStatus !== 1 || tenantExpires <= now) return { refused: DISPLAY_MESSAGES.tenant };
    const until = Math.min(expires, tenantExpires);
    return { link: found.link, until: Number.isFinite(until) ? until : undefined };
  }

  private lookup(hash: string): Promise<Found | undefined> {
    const cached = this.byHash.get(hash);
    if (cached && this.now() - cached.at <= CACHE_MS) return cached.found;
    // Misses are not kept: made-up secrets cannot fill the memory, and each costs one indexed read.
    if (this.byHash.size >= this.maxCached) this.byHash.clear();
    const entry = { found: this.load(hash), at: this.now() };
    this.byHash.set(hash, entry);
    const forget = () => {
      if (this.byHash.get(hash) === entry) this.byHash.delete(hash);
    };
    entry.found.then((row) => row ?? forget(), forget);
    return entry.found;
  }

  /** Identity: the link by its hash, before any caller exists (server/db/raw-queries.ts). */
  private async load(hash: string): Promise<Found | undefined> {
    const row = await this.db
      .selectFrom('wit_display_link')
      .select(['id', 'tenantId', 'name', 'projectIds', 'layout', 'rotateSeconds', 'trends', 'expiresAt', 'revoked'])
      .where('secretHash', '=', hash)
      .where('isDeleted', '=', 0)
      .executeTakeFirst();
    if (!row) return undefined;
    const tenant = await this.db.selectFrom('blade_tenant').select(['status', 'expireTime']).where('tenantId', '=', row.tenantId).where('isDeleted', '=', 0).executeTakeFirst();
    return {
      link: {
        id: row.id,
        tenantId: row.tenantId,
        name: row.name,
        projectIds: row.projectIds.split(',').filter(Boolean),
        layout: row.layout ?? 'structure',
        rotateSeconds: row.rotateSeconds ?? 30,
        trends: trendsOf(row.trends),
        expiresAt: row.expiresAt,
      },
      revoked: Number(row.revoked) === 1,
      tenantStatus: tenant ? Number(tenant.status) : undefined,
      tenantExpires: tenant?.expireTime ?? null,
    };
  }

  /**
   * Records that the link was used, from where and by what, at most once a minute per link. Bookkeeping: it tells no
   * cache anything (no `changed` event), so a busy screen does not make every process re-read its links.
   */
  async touch(link: DisplayLink, address: string, agent: string | undefined): Promise<void> {
    const now = this.now();
    if (now - (this.seen.get(link.id) ?? 0) < SEEN_EVERY_MS) return;
    this.seen.set(link.id, now);
    await this.db
      .updateTable('wit_display_link')
      .set({ lastSeenTime: formatDateTime(new Date(now)), lastSeenIp: address.slice(0, 64), lastSeenAgent: agent?.slice(0, 500) ?? null })
      .where('id', '=', link.id)
      .execute();
  }
}

/**
 * The caller a display link reads as: the link's tenant, no user, no role — so no data scope, no assigned projects and
 * no administrator — and the repository limits it to the link's projects and refuses it every write
 * (server/db/repository.ts).
 */
export function displayContext(link: DisplayLink): CallContext {
  const principal: Principal = {
    userId: `display:${link.id}`,
    tenantId: link.tenantId,
    account: `display:${link.id}`,
    userName: link.name,
    nickName: link.name,
    roleIds: [],
    roleNames: [],
    deptId: '',
    postId: '',
    clientId: 'display',
    jti: `display:${link.id}`,
    sessionId: `display:${link.id}`,
    exp: 0,
  };
  return { principal, display: { linkId: link.id, projectIds: link.projectIds } };
}
