import { DEFAULT_TOPIC, PUSH_TYPE } from '../../resources/iot/push';
import type { Row } from '../db/database';

/** A push target as the forwarder uses it: a wit_mqtt_param row with its defaults applied and its headers parsed. */
export interface Target {
  id: string;
  tenantId: string;
  name: string;
  pushType: typeof PUSH_TYPE.mqtt | typeof PUSH_TYPE.http;
  enabled: boolean;
  brokerUrl: string;
  clientId: string;
  username?: string;
  password?: string;
  topic: string;
  qos: 0 | 1;
  url: string;
  headers: Record<string, string>;
  token?: string;
  secret?: string;
  batchSize: number;
  flushInterval: number;
  timeout: number;
  /** Changes whenever anything that shapes the connection changes: a kept MQTT client is replaced then. */
  signature: string;
}

const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
const num = (value: unknown, fallback: number): number => (value === null || value === undefined || value === '' || !Number.isFinite(Number(value)) ? fallback : Number(value));

function headersOf(value: unknown): Record<string, string> {
  if (typeof value !== 'string' || value.trim() === '') return {};
  try {
    const parsed = JSON.parse(value) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  } catch {
    // Saving validates them (headersProblem); headers stored around the API count as none.
    return {};
  }
}

export function targetOf(row: Row): Target {
  const id = String(row.id);
  const target: Omit<Target, 'signature'> = {
    id,
    tenantId: String(row.tenantId),
    name: String(row.name ?? ''),
    pushType: Number(row.pushType) === PUSH_TYPE.http ? PUSH_TYPE.http : PUSH_TYPE.mqtt,
    enabled: Number(row.enabled ?? 1) === 1,
    brokerUrl: str(row.brokerUrl) ?? '',
    // One client id per target: two processes pushing to the same broker would take turns disconnecting each other.
    clientId: str(row.clientId) ?? `vigil-push-${id}`,
    username: str(row.username),
    password: typeof row.password === 'string' && row.password !== '' ? row.password : undefined,
    topic: str(row.topic) ?? DEFAULT_TOPIC,
    qos: Number(row.qos ?? 1) === 0 ? 0 : 1,
    url: str(row.url) ?? '',
    headers: headersOf(row.headers),
    token: str(row.token),
    secret: typeof row.secret === 'string' && row.secret !== '' ? row.secret : undefined,
    batchSize: Math.max(1, num(row.batchSize, 100)),
    flushInterval: Math.max(100, num(row.flushInterval, 2000)),
    timeout: Math.max(1000, num(row.timeout, 10000)),
  };
  const { brokerUrl, clientId, username, password, timeout } = target;
  return { ...target, signature: JSON.stringify([brokerUrl, clientId, username, password, timeout]) };
}

/** Where a target sends, for logs: the broker or the URL without its query string (which may carry a key). */
export function endpointOf(target: Target): string {
  const address = target.pushType === PUSH_TYPE.mqtt ? target.brokerUrl : target.url;
  try {
    const url = new URL(address);
    // Not url.origin: it is "null" for mqtt:// and the other non-web schemes.
    return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
  } catch {
    return address;
  }
}
