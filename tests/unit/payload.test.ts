import { describe, expect, it } from 'vitest';
import { parseDevicePayload, parseGatewayPayload, PayloadError } from '../../server/ingest/payload';

const buf = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
const NOW = 1_700_000_000_000;

describe('data payloads', () => {
  it('reads a device reading, a list of them, and every time format', () => {
    expect(parseDevicePayload(buf({ ts: NOW, values: { tilt_x: 0.5 } }), NOW)).toEqual({ readings: [{ ts: NOW, values: { tilt_x: 0.5 } }], warnings: [] });
    const list = parseDevicePayload(buf([{ ts: NOW / 1000, values: { a: 1 } }, { time: '2023-11-14T22:13:20Z', values: { a: '2' } }, { values: { a: 3 } }]), NOW);
    expect(list.readings.map((r) => r.ts)).toEqual([NOW, NOW, NOW]);
    expect(list.readings.map((r) => r.values.a)).toEqual([1, 2, 3]);
    expect(parseDevicePayload(buf({ ts: '2024-05-01 12:00:00', values: {} })).readings[0].ts).toBe(new Date(2024, 4, 1, 12).getTime());
  });

  it('keeps the good values and warns about the bad ones', () => {
    const parsed = parseDevicePayload(buf({ values: { ok: 1, text: 'abc', nan: null, 'bad key': 2 } }), NOW);
    expect(parsed.readings[0].values).toEqual({ ok: 1 });
    expect(parsed.warnings).toHaveLength(3);
  });

  it('refuses what is not a payload', () => {
    for (const bad of ['not json', '42', '{"values": 1}', '{"ts": "yesterday", "values": {}}', '[1]']) {
      expect(() => parseDevicePayload(buf(bad)), bad).toThrow(PayloadError);
    }
  });

  it('reads both gateway shapes and insists on device codes', () => {
    const map = parseGatewayPayload(buf({ ts: NOW, devices: { 'D-1': { x: 1 }, 'D-2': { y: 2 } } }));
    expect(map.readings).toEqual([
      { device: 'D-1', ts: NOW, values: { x: 1 } },
      { device: 'D-2', ts: NOW, values: { y: 2 } },
    ]);
    const list = parseGatewayPayload(buf([{ device: 'D-1', ts: NOW, values: { x: 1 } }]));
    expect(list.readings[0].device).toBe('D-1');
    expect(() => parseGatewayPayload(buf([{ values: { x: 1 } }]))).toThrow(PayloadError);
    expect(() => parseGatewayPayload(buf({ values: { x: 1 } }))).toThrow(PayloadError);
  });
});
