import type { Db } from '../db/database';
import type { EventBus } from '../events';

const TABLE = 'blade_token_revocation';

/**
 * Token ids and session ids revoked before their expiry (logout, refresh rotation). Checked on every request from
 * memory; the table makes revocations survive restarts and reach the other server processes, which re-read it when
 * told of the change (server/cluster/relay.ts) and every `refreshMs` in case the telling was lost.
 */
export class RevocationList {
  private readonly revoked = new Map<string, number>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly events: EventBus,
  ) {
    events.whenChanged([TABLE], () => void this.reload().catch(() => undefined));
  }

  async start(refreshMs = 10_000): Promise<void> {
    await this.reload();
    this.timer = setInterval(() => void this.reload().catch(() => undefined), refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private async reload(): Promise<void> {
    const now = Date.now();
    await this.db.deleteFrom('blade_token_revocation').where('expiresAt', '<', now).execute();
    const rows = (await this.db.selectFrom('blade_token_revocation').select(['jti', 'expiresAt']).execute()) as Array<{
      jti: string;
      expiresAt: number;
    }>;
    for (const row of rows) this.revoked.set(row.jti, row.expiresAt);
    for (const [id, expires] of this.revoked) if (expires < now) this.revoked.delete(id);
  }

  isRevoked(...ids: Array<string | undefined>): boolean {
    return ids.some((id) => id !== undefined && this.revoked.has(id));
  }

  /** expiresAt: epoch seconds after which the token is dead anyway. */
  async revoke(id: string, expiresAt: number): Promise<void> {
    const ms = expiresAt * 1000;
    this.revoked.set(id, ms);
    await this.db
      .insertInto('blade_token_revocation')
      .values({ jti: id, expiresAt: ms })
      .onConflict((oc) => oc.column('jti').doNothing())
      .execute();
    this.events.emit('changed', TABLE);
  }
}
