import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/database';
import type { Condition } from '../http/conditions';
import type { SignInRules } from './sign-in-rules';

/**
 * Failed passwords and the locks they cause (docs/sign-in.md). An account's failures from every address decide when
 * its sign-in needs a captcha; the failures from one address lock only that address out of the account, so a guesser
 * elsewhere never locks the real user out. Kept in blade_login_attempt so restarts and other processes see them.
 */

const TABLE = 'blade_login_attempt';
/** The address of the row that counts the account's failures from every address. */
const WHOLE_ACCOUNT = '';
const SWEEP_EVERY_MS = 10 * 60 * 1000;

export interface Attempt {
  tenantId: string;
  account: string;
  /** The source address (normalized: an IPv6 /64 is one address). */
  address: string;
}

export interface GuardState {
  /** This address may not sign in to the account before this time (ms), or 0. */
  lockedUntil: number;
  /** The account's next sign-in needs a captcha. */
  captchaRequired: boolean;
  /** Failures of the account from every address, within the window. */
  failures: number;
}

export interface Failure extends GuardState {
  /** This failure locked the address out of the account. */
  lockedNow: boolean;
  /** This failure made the account need a captcha. */
  captchaNow: boolean;
}

export interface AddressLock {
  address: string;
  failures: number;
  lockedUntil: number;
}

export interface AccountLocks {
  failures: number;
  captchaRequired: boolean;
  /** The addresses locked out of the account now. */
  locks: AddressLock[];
}

interface AttemptRow {
  address: string;
  failures: number;
  lockedUntil: number;
  lastFailure: number;
}

export const accountKey = (tenantId: unknown, account: unknown) => `${String(tenantId)}\n${String(account)}`;

export class SignInGuard {
  /** The clock of every rule; tests move it instead of waiting. */
  now: () => number = Date.now;
  private lastSweep = 0;

  constructor(
    private readonly db: Db,
    private readonly rules: SignInRules,
  ) {}

  async state(attempt: Attempt): Promise<GuardState> {
    const rows = await this.rowsOf(attempt);
    return this.stateOf(rows, attempt.address, this.now());
  }

  /** Counts a failed password (atomically, so parallel guesses cannot slip past the lock) and applies the rules. */
  async failed(attempt: Attempt): Promise<Failure> {
    const now = this.now();
    await this.count(attempt, WHOLE_ACCOUNT, now);
    await this.count(attempt, attempt.address, now);
    const locked = await this.db
      .updateTable(TABLE)
      .set({ lockedUntil: now + this.rules.lockMs })
      .where('tenantId', '=', attempt.tenantId)
      .where('account', '=', attempt.account)
      .where('address', '=', attempt.address)
      .where('lockedUntil', '=', 0)
      .where('failures', '>=', this.rules.lockAfter)
      .executeTakeFirst();
    const state = this.stateOf(await this.rowsOf(attempt), attempt.address, now);
    await this.sweep(now);
    return { ...state, lockedNow: Number(locked.numUpdatedRows) > 0, captchaNow: state.failures === this.rules.captchaAfter };
  }

  /**
   * A right password clears the account's failure count and this address's row; other addresses keep their locks,
   * or a guesser's lock would end whenever the real user signs in.
   */
  async succeeded(attempt: Attempt): Promise<void> {
    await this.db
      .deleteFrom(TABLE)
      .where('tenantId', '=', attempt.tenantId)
      .where('account', '=', attempt.account)
      .where('address', 'in', [WHOLE_ACCOUNT, attempt.address])
      .execute();
  }

  /** An administrator lifts every lock and the captcha demand of these accounts. */
  async lift(accounts: ReadonlyArray<{ tenantId: unknown; account: unknown }>): Promise<void> {
    if (accounts.length === 0) return;
    await this.db
      .deleteFrom(TABLE)
      .where((eb) => eb.or(accounts.map((a) => eb.and([eb('tenantId', '=', String(a.tenantId)), eb('account', '=', String(a.account))]))))
      .execute();
  }

  /** The locks and captcha demands of these accounts now, by accountKey; accounts without any are absent. */
  async locksOf(accounts: ReadonlyArray<{ tenantId: unknown; account: unknown }>): Promise<Map<string, AccountLocks>> {
    const out = new Map<string, AccountLocks>();
    if (accounts.length === 0) return out;
    const now = this.now();
    const rows = (await this.db
      .selectFrom(TABLE)
      .select(['tenantId', 'account', 'address', 'failures', 'lockedUntil', 'lastFailure'])
      .where((eb) => eb.or(accounts.map((a) => eb.and([eb('tenantId', '=', String(a.tenantId)), eb('account', '=', String(a.account))]))))
      .execute()) as Array<AttemptRow & { tenantId: string; account: string }>;
    const grouped = new Map<string, AttemptRow[]>();
    for (const row of rows) grouped.set(accountKey(row.tenantId, row.account), [...(grouped.get(accountKey(row.tenantId, row.account)) ?? []), row]);
    for (const [key, list] of grouped) {
      const state = this.stateOf(list, WHOLE_ACCOUNT, now);
      const locks = list
        .filter((r) => r.address !== WHOLE_ACCOUNT && r.lockedUntil > now)
        .map((r) => ({ address: r.address, failures: r.failures, lockedUntil: r.lockedUntil }));
      if (locks.length || state.captchaRequired) out.set(key, { failures: state.failures, captchaRequired: state.captchaRequired, locks });
    }
    return out;
  }

  /** Users (of a blade_user query) locked out from some address or needing a captcha now. */
  lockedUsers(): Condition {
    const now = this.now();
    const cutoff = now - this.rules.failureWindowMs;
    return () => sql<SqlBool>`exists (
      select 1 from blade_login_attempt a
      where a.tenant_id = blade_user.tenant_id and a.account = blade_user.account
        and (a.locked_until > ${now} or (a.address = '' and a.failures >= ${this.rules.captchaAfter} and a.last_failure >= ${cutoff})))`;
  }

  private async rowsOf(attempt: Attempt): Promise<AttemptRow[]> {
    return (await this.db
      .selectFrom(TABLE)
      .select(['address', 'failures', 'lockedUntil', 'lastFailure'])
      .where('tenantId', '=', attempt.tenantId)
      .where('account', '=', attempt.account)
      .where('address', 'in', [WHOLE_ACCOUNT, attempt.address])
      .execute()) as AttemptRow[];
  }

  private stateOf(rows: AttemptRow[], address: string, now: number): GuardState {
    const whole = rows.find((r) => r.address === WHOLE_ACCOUNT);
    const own = address === WHOLE_ACCOUNT ? undefined : rows.find((r) => r.address === address);
    const failures = whole && whole.lastFailure >= now - this.rules.failureWindowMs ? whole.failures : 0;
    const lockedUntil = own && own.lockedUntil > now ? own.lockedUntil : 0;
    return { lockedUntil, captchaRequired: failures >= this.rules.captchaAfter, failures };
  }

  /** One more failure on a row; a row whose failures are forgotten or whose lock has ended starts again at 1. */
  private async count(attempt: Attempt, address: string, now: number): Promise<void> {
    const column = (name: string) => sql.ref(`${TABLE}.${name}`);
    const stale = sql<SqlBool>`(${column('last_failure')} < ${now - this.rules.failureWindowMs} or (${column('locked_until')} > 0 and ${column('locked_until')} <= ${now}))`;
    await this.db
      .insertInto(TABLE)
      .values({ tenantId: attempt.tenantId, account: attempt.account, address, failures: 1, lockedUntil: 0, lastFailure: now })
      .onConflict((oc) =>
        oc.columns(['tenantId', 'account', 'address']).doUpdateSet({
          failures: sql`case when ${stale} then 1 else ${column('failures')} + 1 end`,
          lockedUntil: sql`case when ${stale} then 0 else ${column('locked_until')} end`,
          lastFailure: now,
        }),
      )
      .execute();
  }

  /** Forgets rows of long-past failures now and then (guesses at made-up accounts leave rows too). */
  private async sweep(now: number): Promise<void> {
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    await this.db
      .deleteFrom(TABLE)
      .where('lastFailure', '<', now - Math.max(this.rules.failureWindowMs, this.rules.lockMs))
      .where('lockedUntil', '<=', now)
      .execute();
  }
}
