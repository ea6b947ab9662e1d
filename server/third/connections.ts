import { THIRD_PLATFORM, thirdMonitorParam } from '../../resources/iot/third';
import { type Secrets, UnreadableSecret } from '../auth/secrets';
import type { Row } from '../db/database';
import type { OutboundGuard } from '../net/outbound';
import { BladeXPlatform } from './bladex';
import { type ThirdConnection, ThirdError, type ThirdPlatform } from './types';

/** The connection fields of a stored `thirdmonitorparam` row (read from the table: the secrets included). */
export function connectionOf(row: Row): ThirdConnection {
  return {
    platformType: String(row.platformType ?? THIRD_PLATFORM.bladex),
    baseUrl: String(row.baseUrl ?? ''),
    thirdTenantId: String(row.thirdTenantId ?? '000000'),
    username: String(row.username ?? ''),
    password: String(row.password ?? ''),
    clientId: String(row.clientId ?? ''),
    clientSecret: String(row.clientSecret ?? ''),
    timeoutSeconds: Number(row.timeoutSeconds ?? 15) || 15,
  };
}

function adapterFor(connection: ThirdConnection, guard: OutboundGuard): ThirdPlatform {
  if (connection.platformType === THIRD_PLATFORM.bladex) return new BladeXPlatform(connection, guard);
  throw new ThirdError('remote', `不支持的平台类型: ${connection.platformType}`);
}

/**
 * One adapter per connection row, kept while the row's connection fields stay the same, so calls and periodic pulls
 * share its token instead of signing in every time.
 */
export class ThirdConnections {
  private readonly cache = new Map<string, { signature: string; platform: ThirdPlatform }>();

  constructor(
    private readonly guard: OutboundGuard,
    private readonly secrets: Secrets,
  ) {}

  /** The adapter of a stored connection row, its password and client secret opened (server/auth/secrets.ts). */
  of(row: Row): ThirdPlatform {
    const id = String(row.id);
    const connection = connectionOf(this.opened(row));
    const signature = JSON.stringify(connection);
    const held = this.cache.get(id);
    if (held?.signature === signature) return held.platform;
    const platform = adapterFor(connection, this.guard);
    this.cache.set(id, { signature, platform });
    return platform;
  }

  private opened(row: Row): Row {
    try {
      return this.secrets.reveal(thirdMonitorParam, row);
    } catch (error) {
      // Like a refused sign-in: periodic pulls pause until an edit gives the secret again.
      if (error instanceof UnreadableSecret) throw new ThirdError('login', error.message);
      throw error;
    }
  }

  forget(id: string): void {
    this.cache.delete(id);
  }
}
