import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { verifyPassword } from '../auth/passwords';
import type { DeviceCredentialRules } from '../auth/sign-in-rules';
import { orWhenUnavailable } from '../cache';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { Batched } from '../db/batched';
import { inUse } from '../db/in-use';
import type { Platform } from '../platform';

/**
 * Fast verifiers of device credentials (docs/mqtt.md "Credentials"). A device reconnects after every restart, upgrade
 * or network cut, all of its fleet at once: scrypt (~20 ms of CPU, right for a person's sign-in) would take minutes to
 * let 20,000 back in. So beside each identity's scrypt hash the broker keeps a verifier, HMAC-SHA-256 of the username
 * and password under a key derived from SECRETS_KEY — a key that is not in the database, so a leaked database alone
 * gives nothing to crack faster than scrypt. A verifier is made by the first successful slow check; it names the hash
 * it was made beside, so a new password (a new hash) sends the next CONNECT through scrypt again.
 *
 * Stored as `v1$<key id>$<base64url HMAC>`; the key id lets a SECRETS_KEY rotation keep the old verifiers working
 * while the old key is still listed, and send the others through scrypt once when it is not.
 */

const VERSION = 'v1';
/** Refusals of names no tenant holds are logged with the platform's. */
const PLATFORM_TENANT = '000000';

/** What a stored verifier says of a password. */
export type Verdict = 'match' | 'mismatch' | 'unknown';

export class DeviceVerifiers {
  private readonly keys = new Map<string, Buffer>();
  private readonly currentId: string;

  /** `secretsKeys[0]` makes verifiers; every key checks them. */
  constructor(secretsKeys: readonly Buffer[]) {
    for (const secret of secretsKeys) {
      const key = Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'vigil device verifier', 32));
      this.keys.set(createHash('sha256').update(key).digest('hex').slice(0, 8), key);
    }
    [this.currentId] = this.keys.keys();
  }

  make(username: string, password: Buffer): string {
    return `${VERSION}$${this.currentId}$${this.mac(this.keys.get(this.currentId) as Buffer, username, password).toString('base64url')}`;
  }

  /** `unknown`: no verifier, or one made under a key no longer listed — only the slow check can tell. */
  check(stored: string | null | undefined, username: string, password: Buffer): Verdict {
    const [version, keyId, mac] = (stored ?? '').split('$');
    const key = version === VERSION ? this.keys.get(keyId) : undefined;
    if (!key || !mac) return 'unknown';
    const expected = Buffer.from(mac, 'base64url');
    const actual = this.mac(key, username, password);
    return expected.length === actual.length && timingSafeEqual(expected, actual) ? 'match' : 'mismatch';
  }

  /** Whether a verifier was made under the current key (one made under an older key is made again). */
  current(stored: string): boolean {
    return stored.startsWith(`${VERSION}$${this.currentId}$`);
  }

  private mac(key: Buffer, username: string, password: Buffer): Buffer {
    // The username's length first, so no split of one string into username and password collides with another.
    return createHmac('sha256', key).update(`${Buffer.byteLength(username)}:${username}`).update(password).digest();
  }
}

/** A broker identity as a CONNECT checks it. */
export interface IdentityRow {
  id: string;
  tenantId: string;
  username: string;
  password: string;
  clientType: number;
  clientId: string | null;
  isSuperuser: number | null;
}

interface Known {
  row: IdentityRow;
  /** The verifier, while it was made beside the row's current hash. */
  verifier?: string;
}

/** Why a CONNECT was refused — no such identity, a wrong password, or too many wrong ones from its address — in whose log. */
export interface Refusal {
  refused: 'unknown' | 'password' | 'locked';
  tenantId: string;
}

/** Runs at most `size` tasks at once; the others wait their turn in order. */
class Slots {
  private busy = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.busy >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.busy += 1;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.busy -= 1;
    }
  }
}

/**
 * The CONNECT check of the embedded broker: an identity in use, its password through the verifier when it has one and
 * through scrypt (a few at once) when not, and a lock on an identity from an address that keeps guessing. Identities
 * are cached until wit_mqtt_user changes; the CONNECTs of a reconnecting fleet are looked up in batches.
 */
export class DeviceCredentials {
  private readonly known = new Map<string, Promise<Known | undefined>>();
  private readonly slow: Slots;
  private readonly lookup = new Batched<Known>((usernames) => this.load(usernames));

  private readonly db: Db;
  private readonly rules: DeviceCredentialRules;

  constructor(
    private readonly deps: Pick<Platform, 'db' | 'store' | 'metrics' | 'logs'> & { config: Pick<Config, 'secretsKeys' | 'deviceSignIn'> },
    private readonly verifiers = new DeviceVerifiers(deps.config.secretsKeys),
  ) {
    this.db = deps.db;
    this.rules = deps.config.deviceSignIn;
    this.slow = new Slots(this.rules.slowChecks);
  }

  /** Forgets every identity: one changed (or a relay reconnected). */
  forget(): void {
    this.known.clear();
  }

  /** Of these usernames, those still in use, each with the client id it is bound to (null: any). */
  async inUse(usernames: string[]): Promise<Map<string, string | null>> {
    const rows = await this.db.selectFrom('wit_mqtt_user').select(['username', 'clientId']).where('username', 'in', usernames).$call(inUse).execute();
    return new Map(rows.map((row) => [row.username, row.clientId || null]));
  }

  /** The identity a CONNECT may use, or why not; a refusal is answered only after the rules' delay. */
  async check(username: string, password: Buffer, address: string): Promise<{ row: IdentityRow } | Refusal> {
    const { store } = this.deps;
    const lock = `mqtt-lock:${address}:${username}`;
    const entry = await this.entry(username);
    if (!entry) return this.refuse({ refused: 'unknown', tenantId: PLATFORM_TENANT });
    const { row } = entry;
    // The lockout is a throttle: with the store away (Redis) it stands aside, as sign-in's do (docs/mqtt.md).
    if (await orWhenUnavailable(store.peek(lock), undefined)) return this.refuse({ refused: 'locked', tenantId: row.tenantId });
    const verdict = this.verifiers.check(entry.verifier, username, password);
    if (verdict === 'match') {
      if (!this.verifiers.current(entry.verifier as string)) this.remember(entry, password);
      return this.accept(row, 'verifier');
    }
    if (verdict === 'unknown' && (await this.slow.run(() => verifyPassword(password.toString('utf8'), row.password)))) {
      this.remember(entry, password);
      return this.accept(row, 'scrypt');
    }
    const failures = await orWhenUnavailable(store.hit(`mqtt-fail:${address}:${username}`, this.rules.lockMs), { count: 0, ttlMs: 0 });
    if (failures.count >= this.rules.lockAfter) await orWhenUnavailable(store.set(lock, '1', Math.ceil(this.rules.lockMs / 1000)), undefined);
    return this.refuse({ refused: 'password', tenantId: row.tenantId });
  }

  private accept(row: IdentityRow, how: 'verifier' | 'scrypt'): { row: IdentityRow } {
    this.deps.metrics.deviceConnect(how);
    return { row };
  }

  private async refuse(refusal: Refusal): Promise<Refusal> {
    this.deps.metrics.deviceConnect(refusal.refused);
    await new Promise((resolve) => setTimeout(resolve, this.rules.refusalDelayMs));
    return refusal;
  }

  private entry(username: string): Promise<Known | undefined> {
    let entry = this.known.get(username);
    if (!entry) {
      entry = this.lookup.get(username);
      this.known.set(username, entry);
      // Unknown names are not kept (anyone may try any name); a failed read is tried again next time.
      entry.then((found) => found || this.known.delete(username)).catch(() => this.known.delete(username));
    }
    return entry;
  }

  private async load(usernames: string[]): Promise<Map<string, Known>> {
    const rows = await this.db
      .selectFrom('wit_mqtt_user')
      .leftJoin('wit_mqtt_verifier', 'wit_mqtt_verifier.userId', 'wit_mqtt_user.id')
      .select(['wit_mqtt_user.id', 'wit_mqtt_user.tenantId', 'username', 'password', 'clientType', 'clientId', 'isSuperuser', 'passwordHash', 'verifier'])
      .where('username', 'in', usernames)
      .$call(inUse)
      .execute();
    return new Map(
      rows.map(({ passwordHash, verifier, ...row }) => [
        row.username,
        { row, verifier: verifier !== null && passwordHash === row.password ? verifier : undefined },
      ]),
    );
  }

  /**
   * Keeps a verifier made under the current key beside the hash the password was just checked against. The CONNECT
   * does not wait for it: a verifier not stored only means one more slow check later.
   */
  private remember(entry: Known, password: Buffer): void {
    const { row } = entry;
    const verifier = this.verifiers.make(row.username, password);
    entry.verifier = verifier;
    this.db
      .insertInto('wit_mqtt_verifier')
      .values({ userId: row.id, tenantId: row.tenantId, passwordHash: row.password, verifier })
      .onConflict((oc) => oc.column('userId').doUpdateSet({ passwordHash: row.password, verifier }))
      .execute()
      .catch((error) => this.deps.logs.error('ingest', error, 'device verifier'));
  }
}
