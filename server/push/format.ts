import type { TopicPlaceholder } from '../../resources/iot/push';
import { PUSH_TYPE } from '../../resources/iot/push';
import { nextId } from '../ids';
import { formatDateTime } from '../time';
import type { Target } from './target';

/**
 * The one message format of both transports (docs/push.md "Format"): a project's readings grouped by device and
 * instant, channels under `values`. A topic template with {deviceCode} or {pointKey} splits a batch into one message
 * per topic. Each message carries a messageId that stays the same when it is sent again, so a receiver can drop
 * repeats (delivery is at least once).
 */

/** One channel value to push. */
export interface PushReading {
  deviceId: string;
  deviceCode: string;
  pointKey: string;
  ts: number;
  value: number;
}

export interface ProjectInfo {
  id: string;
  code: string;
  name: string;
}

export interface DeviceInfo {
  code: string;
  name: string;
}

/** How a target names our devices and channels (subtable rows). */
export interface Naming {
  devices: ReadonlyMap<string, string>;
  /** `<deviceId>|<pointKey>` → the target's key. */
  keys: ReadonlyMap<string, string>;
}

/** What a message is built from. */
export interface Scope {
  tenantId: string;
  project: ProjectInfo;
  devices: ReadonlyMap<string, DeviceInfo>;
  naming: Naming;
}

/** A message ready to send; `topic` is empty for HTTP. */
export interface Outgoing {
  messageId: string;
  topic: string;
  body: string;
  readings: number;
}

interface Entry {
  device: string;
  deviceName: string | null;
  ts: number;
  time: string;
  values: Record<string, number>;
}

export function renderTopic(template: string, values: Readonly<Record<TopicPlaceholder, string>>): string {
  return template.replace(/\{(tenantId|projectId|projectCode|deviceCode|pointKey)\}/g, (_all, name: TopicPlaceholder) => values[name]);
}

/** The messages of a batch, in time order within each message. */
export function messagesOf(target: Target, scope: Scope, readings: readonly PushReading[]): Outgoing[] {
  const groups = new Map<string, { entries: Map<string, Entry>; count: number }>();
  for (const r of readings) {
    const device = scope.naming.devices.get(r.deviceId) ?? scope.devices.get(r.deviceId)?.code ?? r.deviceCode;
    const key = scope.naming.keys.get(`${r.deviceId}|${r.pointKey}`) ?? r.pointKey;
    const topic =
      target.pushType === PUSH_TYPE.mqtt
        ? renderTopic(target.topic, { tenantId: scope.tenantId, projectId: scope.project.id, projectCode: scope.project.code, deviceCode: device, pointKey: key })
        : '';
    let group = groups.get(topic);
    if (!group) groups.set(topic, (group = { entries: new Map(), count: 0 }));
    const entryKey = `${device}|${r.ts}`;
    let entry = group.entries.get(entryKey);
    if (!entry) {
      entry = { device, deviceName: scope.devices.get(r.deviceId)?.name ?? null, ts: r.ts, time: formatDateTime(new Date(r.ts)), values: {} };
      group.entries.set(entryKey, entry);
    }
    entry.values[key] = r.value;
    group.count += 1;
  }
  return [...groups].map(([topic, group]) => {
    const entries = [...group.entries.values()].sort((a, b) => a.ts - b.ts || a.device.localeCompare(b.device));
    const messageId = nextId();
    const body = JSON.stringify({ messageId, tenantId: scope.tenantId, project: scope.project, readings: entries });
    return { messageId, topic, body, readings: group.count };
  });
}

/** The test message of a connection test (subtable/testMQTT). */
export function testMessage(target: Target): Outgoing {
  const messageId = nextId();
  const topic =
    target.pushType === PUSH_TYPE.mqtt
      ? renderTopic(target.topic, { tenantId: target.tenantId, projectId: '0', projectCode: 'test', deviceCode: 'test', pointKey: 'test' })
      : '';
  const body = JSON.stringify({ messageId, tenantId: target.tenantId, test: true, message: 'Vigil 推送连接测试', time: formatDateTime() });
  return { messageId, topic, body, readings: 0 };
}

/** The start of a body for the log. */
export const excerpt = (body: string | undefined, max = 1000) => (body === undefined ? null : body.length > max ? `${body.slice(0, max)}…` : body);

/** The topics (or URL) of an attempt, for the log. */
export function describeTarget(target: Target, messages: readonly Outgoing[], endpoint: string): string {
  if (target.pushType === PUSH_TYPE.http) return endpoint;
  const topics = [...new Set(messages.map((m) => m.topic))];
  return topics.length <= 1 ? (topics[0] ?? target.topic) : `${topics[0]} 等 ${topics.length} 个主题`;
}
