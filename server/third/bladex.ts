import { type OutboundGuard, refusalOf } from '../net/outbound';
import { formatDateTime } from '../time';
import {
  type RemoteDevice,
  type RemoteDevicePoint,
  type RemoteMonitorPoint,
  type RemoteProject,
  type RemoteReading,
  type ThirdConnection,
  ThirdError,
  type ThirdPlatform,
} from './types';

/**
 * A platform that speaks the BladeX contract (another Vigil, or a SpringBlade/BladeX back end with the wit-xinde
 * calls): OAuth password grant with Basic client authentication and the Tenant-Id header, then the generic list
 * calls with `Blade-Auth: bearer <token>`. The token is refreshed (refresh grant, else a new sign-in) shortly
 * before it expires, and once more when a call is answered 401. Every request goes through the outbound guard
 * (server/net/outbound.ts): a platform on the server's own network is refused.
 */

type Json = Record<string, unknown>;
type Params = Record<string, string | number | undefined>;

/** The largest page the contract's list calls serve. */
const PAGE_SIZE = 1000;
/** At most this many pages per list: a project is not expected to hold 50,000 devices. */
const MAX_PAGES = 50;
/** At most this many readings for one device and range: the puller asks for a day at a time. */
const MAX_READINGS = 500_000;
/** A token is renewed this long before it expires (a quarter of its life for short-lived tokens). */
const RENEW_BEFORE_MS = 30_000;

interface Token {
  access: string;
  refresh?: string;
  /** When to renew it: a little before it expires. */
  renewAt: number;
}

const str = (value: unknown): string | null => (value === undefined || value === null || value === '' ? null : String(value));
const num = (value: unknown): number | null => {
  if (value === undefined || value === null || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
};
/** A remote date (`yyyy-MM-dd HH:mm:ss`, or epoch ms) in the contract's format. */
const date = (value: unknown): string | null => {
  if (typeof value === 'number' && Number.isFinite(value)) return formatDateTime(new Date(value));
  const text = str(value);
  return text && /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/.test(text) ? text : null;
};

/** The OS error code of a failed fetch (ECONNREFUSED, ENOTFOUND…), for the message. */
function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

export class BladeXPlatform implements ThirdPlatform {
  private token?: Token;
  private signingIn?: Promise<Token>;
  private readonly base: string;

  constructor(
    private readonly connection: ThirdConnection,
    private readonly guard: OutboundGuard,
  ) {
    this.base = connection.baseUrl.replace(/\/+$/, '');
  }

  private get timeoutMs(): number {
    return Math.max(1, this.connection.timeoutSeconds) * 1000;
  }

  private basic(): string {
    return `Basic ${Buffer.from(`${this.connection.clientId}:${this.connection.clientSecret}`).toString('base64')}`;
  }

  /** One HTTP exchange; network failures and timeouts become ThirdErrors with the address in the message. */
  private async fetch(url: URL, init: Parameters<OutboundGuard['fetch']>[1]): Promise<{ status: number; body: unknown }> {
    let response: Awaited<ReturnType<OutboundGuard['fetch']>>;
    try {
      response = await this.guard.fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(this.timeoutMs) });
    } catch (error) {
      const refusal = refusalOf(error);
      if (refusal) throw new ThirdError('blocked', refusal.message);
      if ((error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError') {
        throw new ThirdError('timeout', `第三方平台响应超时(${this.connection.timeoutSeconds}秒): ${this.base}`);
      }
      throw new ThirdError('unreachable', `第三方平台无法访问: ${this.base} (${causeOf(error)})`);
    }
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw new ThirdError('unreachable', `第三方平台连接中断: ${this.base} (${causeOf(error)})`);
    }
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      return { status: response.status, body: undefined };
    }
  }

  async connect(): Promise<void> {
    await this.accessToken();
  }

  /** A live access token: the one held, a refreshed one, or a new sign-in (one at a time). */
  private async accessToken(force = false): Promise<string> {
    if (!force && this.token && Date.now() < this.token.renewAt) return this.token.access;
    this.signingIn ??= this.renew().finally(() => (this.signingIn = undefined));
    this.token = await this.signingIn;
    return this.token.access;
  }

  private async renew(): Promise<Token> {
    const refresh = this.token?.refresh;
    this.token = undefined;
    if (refresh) {
      try {
        return await this.grant({ grant_type: 'refresh_token', refresh_token: refresh, scope: 'all' });
      } catch (error) {
        // An expired or revoked refresh token: sign in again. A platform that cannot be reached fails here too.
        if (!(error instanceof ThirdError) || error.kind !== 'login') throw error;
      }
    }
    const { username, password } = this.connection;
    return this.grant({ grant_type: 'password', username, password, scope: 'all', type: 'account' });
  }

  /** POST oauth/token; the answer is raw (no envelope): the tokens, or `error_description`. */
  private async grant(form: Record<string, string>): Promise<Token> {
    const tenantId = this.connection.thirdTenantId;
    const url = new URL(`${this.base}/api/blade-auth/oauth/token`);
    const { status, body } = await this.fetch(url, {
      method: 'POST',
      headers: { authorization: this.basic(), 'tenant-id': tenantId, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ tenantId, ...form }),
    });
    const json = (body ?? {}) as Json;
    if (typeof json.access_token === 'string' && json.access_token) {
      const lifeMs = (num(json.expires_in) ?? 3600) * 1000;
      return { access: json.access_token, refresh: str(json.refresh_token) ?? undefined, renewAt: Date.now() + lifeMs - Math.min(RENEW_BEFORE_MS, lifeMs / 4) };
    }
    const reason = str(json.error_description) ?? str(json.msg) ?? `HTTP ${status}`;
    throw new ThirdError('login', `第三方平台登录失败: ${reason}`);
  }

  /** A GET of the contract's envelope; answers `data`. A 401 signs in again once and retries. */
  private async get(path: string, params: Params = {}, retried = false): Promise<unknown> {
    const url = new URL(`${this.base}/api${path}`);
    for (const [key, value] of Object.entries(params)) if (value !== undefined) url.searchParams.set(key, String(value));
    const token = await this.accessToken();
    const { status, body } = await this.fetch(url, {
      headers: { authorization: this.basic(), 'tenant-id': this.connection.thirdTenantId, 'blade-auth': `bearer ${token}` },
    });
    const envelope = body && typeof body === 'object' ? (body as Json) : undefined;
    if (status === 401 && !retried) {
      await this.accessToken(true);
      return this.get(path, params, true);
    }
    if (!envelope || typeof envelope.success !== 'boolean') throw new ThirdError('remote', `第三方平台返回了无法识别的内容: ${path} (HTTP ${status})`);
    if (!envelope.success) {
      const reason = str(envelope.msg) ?? `HTTP ${status}`;
      throw new ThirdError('remote', status === 401 || status === 403 ? `第三方平台拒绝访问: ${reason}` : `第三方平台返回错误: ${reason} (${path})`);
    }
    return envelope.data;
  }

  private async array(path: string, params: Params = {}): Promise<Json[]> {
    const data = await this.get(path, params);
    if (!Array.isArray(data)) throw new ThirdError('remote', `第三方平台返回了无法识别的内容: ${path}`);
    return data as Json[];
  }

  /** Every row of a paged list (the pages the platform serves may be smaller than asked). */
  private async all(path: string, params: Params = {}): Promise<Json[]> {
    const out: Json[] = [];
    for (let current = 1; current <= MAX_PAGES; current++) {
      const page = (await this.get(path, { ...params, current, size: PAGE_SIZE })) as { records?: unknown; total?: unknown } | null;
      if (!page || !Array.isArray(page.records)) throw new ThirdError('remote', `第三方平台返回了无法识别的内容: ${path}`);
      out.push(...(page.records as Json[]));
      if (page.records.length === 0 || out.length >= (num(page.total) ?? 0)) return out;
    }
    throw new ThirdError('remote', `第三方平台数据过多: ${path} 超过${MAX_PAGES * PAGE_SIZE}条`);
  }

  /** Codes by id of a catalogue list; a platform without the call just yields no codes (matching is optional). */
  private async codes(path: string): Promise<Map<string, string>> {
    const rows = await this.array(path).catch((error: unknown) => {
      if (error instanceof ThirdError && error.kind === 'remote') return [];
      throw error;
    });
    return new Map(rows.filter((r) => str(r.id) && str(r.code)).map((r) => [String(r.id), String(r.code)]));
  }

  async projects(): Promise<RemoteProject[]> {
    const rows = await this.all('/wit-xinde/project/list');
    return rows.filter((r) => str(r.id) && str(r.name)).map((r) => ({
      id: String(r.id),
      name: String(r.name),
      code: str(r.code),
      structureType: num(r.structureType),
      regionCode: str(r.regionCode),
      address: str(r.address),
      longitude: num(r.longitude),
      latitude: num(r.latitude),
      projectState: num(r.projectState),
      startDate: date(r.startDate),
      endDate: date(r.endDate),
    }));
  }

  async devices(projectId: string, points = false): Promise<RemoteDevice[]> {
    const rows = (await this.all('/wit-xinde/device/list', { projectId })).filter((r) => str(r.id) && str(r.code) && String(r.projectId) === projectId);
    const types = await this.codes('/wit-xinde/devicetype/select');
    const models = await this.codes('/wit-xinde/devicemodel/selectlist');
    const items = points ? await this.codes('/wit-xinde/monitorfactorsitem/selectlist') : new Map<string, string>();
    const out: RemoteDevice[] = [];
    for (const r of rows) {
      out.push({
        id: String(r.id),
        code: String(r.code),
        name: str(r.name) ?? String(r.code),
        deviceTypeCode: types.get(String(r.deviceTypeId)) ?? null,
        modelCode: models.get(String(r.modelId)) ?? null,
        installPosition: str(r.installPosition),
        longitude: num(r.longitude),
        latitude: num(r.latitude),
        elevation: num(r.elevation),
        installTime: date(r.installTime),
        samplingInterval: num(r.samplingInterval),
        points: points ? await this.points(String(r.id), items) : [],
      });
    }
    return out;
  }

  private async points(deviceId: string, items: Map<string, string>): Promise<RemoteDevicePoint[]> {
    const rows = await this.all('/wit-xinde/devicepoint/list', { deviceId });
    return rows
      .filter((r) => String(r.deviceId) === deviceId && str(r.pointKey))
      .map((r) => ({
        pointKey: String(r.pointKey),
        name: str(r.name) ?? String(r.pointKey),
        unit: str(r.unit),
        precision: num(r.precision),
        channel: num(r.channel),
        sort: num(r.sort),
        factorsItemCode: items.get(String(r.factorsItemId)) ?? null,
      }));
  }

  async monitorPoints(projectId: string): Promise<RemoteMonitorPoint[]> {
    const rows = (await this.all('/wit-xinde/monitorpoint/list', { projectId })).filter((r) => str(r.id) && str(r.code) && String(r.projectId) === projectId);
    const factors = await this.codes('/wit-xinde/monitorfactors/selectlist');
    const ids = new Set(rows.map((r) => String(r.id)));
    // The bindings of the whole tenant, kept for this project's points: one paged list instead of a call per point.
    const relations = ids.size ? (await this.all('/wit-xinde/pointrelationdevice/list')).filter((b) => ids.has(String(b.monitorPointId)) && str(b.deviceId)) : [];
    return rows.map((r) => ({
      id: String(r.id),
      code: String(r.code),
      name: str(r.name) ?? String(r.code),
      factorsCode: factors.get(String(r.factorsId)) ?? null,
      position: str(r.position),
      longitude: num(r.longitude),
      latitude: num(r.latitude),
      elevation: num(r.elevation),
      initialValue: num(r.initialValue),
      initialTime: date(r.initialTime),
      sort: num(r.sort),
      devices: relations.filter((b) => String(b.monitorPointId) === String(r.id)).map((b) => ({ deviceId: String(b.deviceId), pointKey: str(b.pointKey) })),
    }));
  }

  /**
   * The device log lists newest first: the range is walked backwards by time (each page ends where the previous
   * one's oldest reading was), so readings stored on the remote while we read do not shift what is left to read.
   */
  async readings(deviceId: string, from: number, to: number): Promise<RemoteReading[]> {
    const byKey = new Map<string, RemoteReading>();
    let upper = to;
    while (upper >= from) {
      const page = (await this.get('/wit-xinde/devicelog/list', { deviceId, ts_ge: from, ts_le: upper, current: 1, size: PAGE_SIZE })) as { records?: unknown; total?: unknown } | null;
      if (!page || !Array.isArray(page.records)) throw new ThirdError('remote', '第三方平台返回了无法识别的内容: /wit-xinde/devicelog/list');
      let oldest = Number.POSITIVE_INFINITY;
      for (const r of page.records as Json[]) {
        const ts = num(r.ts);
        const value = num(r.value);
        const pointKey = str(r.pointKey);
        if (ts === null || value === null || !pointKey || ts < from || ts > upper) continue;
        byKey.set(`${pointKey}\u0000${ts}`, { pointKey, ts, value, raw: num(r.raw) ?? value });
        oldest = Math.min(oldest, ts);
      }
      if (byKey.size > MAX_READINGS) throw new ThirdError('remote', `第三方平台单台设备数据过多: 超过${MAX_READINGS}条`);
      if (page.records.length === 0 || page.records.length >= (num(page.total) ?? 0) || !Number.isFinite(oldest)) break;
      // The oldest instant may continue on the next page, so it is read again; a page of one instant moves on.
      upper = oldest < upper ? oldest : oldest - 1;
    }
    return [...byKey.values()].sort((a, b) => a.ts - b.ts || a.pointKey.localeCompare(b.pointKey));
  }
}
