import { MQTT_ACTION, MQTT_CLIENT_TYPE } from '../../resources/iot/mqtt';

/**
 * The broker's topic rules (docs/mqtt.md). Every topic lives under `vigil/<tenantId>/`; an identity never reaches
 * another tenant's topics, whatever its rules say. Within its tenant, its explicit ACL rules (first match by sort)
 * decide, then the defaults of its type.
 */

export interface Identity {
  tenantId: string;
  username: string;
  clientId: string;
  clientType: number;
  isSuperuser: boolean;
}

export interface AclRule {
  username: string | null;
  topic: string;
  action: number;
  allow: boolean;
}

export type Access = 'publish' | 'subscribe';

export const tenantPrefix = (tenantId: string) => `vigil/${tenantId}/`;

const DEFAULT_RULES: Record<number, ReadonlyArray<readonly [Access, string]>> = {
  [MQTT_CLIENT_TYPE.device]: [
    ['publish', 'vigil/%t/device/%c/data'],
    ['publish', 'vigil/%t/device/%c/reply'],
    ['subscribe', 'vigil/%t/device/%c/command'],
  ],
  [MQTT_CLIENT_TYPE.gateway]: [
    ['publish', 'vigil/%t/gateway/%c/data'],
    ['publish', 'vigil/%t/gateway/%c/reply'],
    ['subscribe', 'vigil/%t/gateway/%c/command'],
  ],
  [MQTT_CLIENT_TYPE.application]: [
    ['subscribe', 'vigil/%t/#'],
    ['publish', 'vigil/%t/+/+/command'],
  ],
};

/** Replaces %t, %u and %c; a placeholder value containing wildcards or separators can never match. */
export function expand(filter: string, who: Identity): string {
  const safe = (value: string) => (/[+#/]/.test(value) ? '\u0000' : value);
  return filter.replaceAll('%t', safe(who.tenantId)).replaceAll('%u', safe(who.username)).replaceAll('%c', safe(who.clientId));
}

/** Does the filter `rule` match every topic that `wanted` (a topic or a filter) can match? */
export function covers(rule: string, wanted: string): boolean {
  const r = rule.split('/');
  const w = wanted.split('/');
  for (let i = 0; i < r.length; i++) {
    if (r[i] === '#') return true;
    if (w[i] === '#') return false;
    if (r[i] !== '+' && r[i] !== w[i]) return false;
  }
  return r.length === w.length;
}

const actionAllows = (action: number, access: Access) =>
  action === MQTT_ACTION.both || (access === 'publish' ? action === MQTT_ACTION.publish : action === MQTT_ACTION.subscribe);

export function allowed(who: Identity, access: Access, topic: string, rules: readonly AclRule[]): boolean {
  if (!topic.startsWith(tenantPrefix(who.tenantId)) || topic.includes('\u0000')) return false;
  for (const rule of rules) {
    if (rule.username !== null && rule.username !== who.username) continue;
    if (actionAllows(rule.action, access) && covers(expand(rule.topic, who), topic)) return rule.allow;
  }
  if (who.isSuperuser) return true;
  return (DEFAULT_RULES[who.clientType] ?? []).some(([a, filter]) => a === access && covers(expand(filter, who), topic));
}
