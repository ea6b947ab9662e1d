import { describe, expect, it } from 'vitest';
import { channelNode, pickedChannels, storedChannels } from './trendChannels';

describe("a display link's charted channels", () => {
  it('reads the stored JSON as picked nodes, and writes them back by project', () => {
    const stored = '{"11":["21:crack","21:temperature"],"12":["31:tilt"]}';
    const picked = pickedChannels(stored);
    expect(picked).toEqual(['11|21:crack', '11|21:temperature', '12|31:tilt']);
    expect(storedChannels(picked)).toBe(stored);
    // The form sends a multi-select comma-joined.
    expect(storedChannels(picked.join(','))).toBe(stored);
    expect(channelNode('11', '21:crack')).toBe('11|21:crack');
  });

  it('drops the channels of projects no longer chosen, and stores nothing for nothing picked', () => {
    expect(storedChannels(['11|21:crack', '12|31:tilt'], '12')).toBe('{"12":["31:tilt"]}');
    expect(storedChannels(['11|21:crack'], ['12'])).toBeNull();
    expect(storedChannels([])).toBeNull();
    expect(storedChannels(undefined)).toBeNull();
  });

  it('reads nothing from an empty or malformed value', () => {
    expect(pickedChannels(null)).toEqual([]);
    expect(pickedChannels('')).toEqual([]);
    expect(pickedChannels('{oops')).toEqual([]);
    expect(pickedChannels('["a"]')).toEqual([]);
    expect(pickedChannels({ '11': ['21:crack', 5] })).toEqual(['11|21:crack']);
  });
});
