import { describe, expect, it } from 'vitest';
import { brokerUrlProblem, headersProblem, httpUrlProblem, topicProblem } from '../../resources/iot/push';
import { messagesOf, type PushReading, type Scope } from '../../server/push/format';
import { endpointOf, targetOf } from '../../server/push/target';

/** The push format and the target rules (docs/push.md "Format", "Resources"). */

const scope: Scope = {
  tenantId: '100001',
  project: { id: '7', code: 'QJ-BRIDGE', name: '大桥' },
  devices: new Map([
    ['1', { code: 'TILT-01', name: '倾角计' }],
    ['2', { code: 'RAIN-01', name: '雨量计' }],
  ]),
  naming: { devices: new Map([['2', 'P-RAIN']]), keys: new Map([['2|rainfall', 'YL']]) },
};
const at = (deviceId: string, pointKey: string, ts: number, value: number): PushReading => ({ deviceId, deviceCode: scope.devices.get(deviceId)?.code ?? '?', pointKey, ts, value });
const batch = [at('1', 'tilt_y', 2000, 0.2), at('1', 'tilt_x', 1000, 0.1), at('2', 'rainfall', 1000, 5), at('1', 'tilt_y', 1000, 0.3)];

describe('push messages', () => {
  it('groups a batch by device and instant in one message when the topic names neither', () => {
    const target = targetOf({ id: '9', tenantId: '100001', pushType: 1, brokerUrl: 'mqtt://b:1883' });
    const [message, ...rest] = messagesOf(target, scope, batch);
    expect(rest).toEqual([]);
    expect(message.topic).toBe('vigil/100001/QJ-BRIDGE/data');
    expect(message.readings).toBe(4);
    const body = JSON.parse(message.body) as { messageId: string; readings: Array<{ device: string; ts: number; values: Record<string, number> }> };
    expect(body.messageId).toBe(message.messageId);
    expect(body.readings.map((r) => [r.device, r.ts, r.values])).toEqual([
      ['P-RAIN', 1000, { YL: 5 }],
      ['TILT-01', 1000, { tilt_x: 0.1, tilt_y: 0.3 }],
      ['TILT-01', 2000, { tilt_y: 0.2 }],
    ]);
  });

  it('splits a batch by the topics its placeholders give', () => {
    const target = targetOf({ id: '9', tenantId: '100001', pushType: 1, brokerUrl: 'mqtt://b:1883', topic: 'o/{projectCode}/{deviceCode}/{pointKey}' });
    const topics = messagesOf(target, scope, batch).map((m) => [m.topic, m.readings]);
    expect(topics).toEqual([
      ['o/QJ-BRIDGE/TILT-01/tilt_y', 2],
      ['o/QJ-BRIDGE/TILT-01/tilt_x', 1],
      ['o/QJ-BRIDGE/P-RAIN/YL', 1],
    ]);
  });

  it('sends HTTP batches as one message and logs URLs without their query', () => {
    const target = targetOf({ id: '9', tenantId: '100001', pushType: 2, url: 'https://p.example.com/in?key=s3cret', topic: 'x/{deviceCode}' });
    expect(messagesOf(target, scope, batch).map((m) => m.topic)).toEqual(['']);
    expect(endpointOf(target)).toBe('https://p.example.com/in');
    expect(endpointOf(targetOf({ id: '9', tenantId: '1', pushType: 1, brokerUrl: 'mqtts://b.example.com:8883' }))).toBe('mqtts://b.example.com:8883');
  });
});

describe('push target rules', () => {
  it('checks topic templates', () => {
    expect(topicProblem('vigil/{tenantId}/{projectCode}/{deviceCode}/{pointKey}')).toBeUndefined();
    expect(topicProblem('a/#')).toContain('通配符');
    expect(topicProblem('$SYS/x')).toContain('$');
    expect(topicProblem('a/{device}')).toContain('未知占位符 {device}');
    expect(topicProblem('a/{deviceCode')).toContain('花括号不成对');
    expect(topicProblem('a/deviceCode}')).toContain('花括号不成对');
  });

  it('checks addresses and headers', () => {
    expect(brokerUrlProblem('mqtt://broker.example.com:1883')).toBeUndefined();
    expect(brokerUrlProblem('wss://broker.example.com/mqtt')).toBeUndefined();
    expect(brokerUrlProblem('tcp://broker.example.com')).toContain('mqtt://');
    expect(brokerUrlProblem('mqtt://u:p@broker.example.com')).toContain('用户名或密码');
    expect(httpUrlProblem('https://p.example.com/api')).toBeUndefined();
    expect(httpUrlProblem('p.example.com/api')).toContain('http://');
    expect(headersProblem('{"X-Key":"1"}')).toBeUndefined();
    expect(headersProblem('[1]')).toContain('JSON 对象');
    expect(headersProblem('{"Bad Name":"1"}')).toContain('名称不合法');
    expect(headersProblem('{"X-Key":1}')).toContain('单行文本');
    expect(headersProblem('{"content-length":"1"}')).toContain('由系统设置');
  });
});
