import { describe, expect, it } from 'vitest';
import { dropPosition, fractionOf } from './placement';

describe('placing points on a project image', () => {
  const box = { left: 100, top: 50, width: 800, height: 400 };

  it('stores a drop as fractions of the image, to four decimals', () => {
    expect(dropPosition(500, 250, box)).toEqual({ x: 0.5, y: 0.5 });
    expect(dropPosition(100, 450, box)).toEqual({ x: 0, y: 1 });
    expect(dropPosition(333, 77, box)).toEqual({ x: 0.2913, y: 0.0675 });
  });

  it('places nothing for a drop beside the image or on an image not laid out', () => {
    expect(dropPosition(99, 250, box)).toBeUndefined();
    expect(dropPosition(500, 451, box)).toBeUndefined();
    expect(dropPosition(10, 10, { left: 0, top: 0, width: 0, height: 0 })).toBeUndefined();
  });

  it('reads stored coordinates, null when not placed or out of range', () => {
    expect(fractionOf(0.25)).toBe(0.25);
    expect(fractionOf('0.5')).toBe(0.5);
    expect(fractionOf(null)).toBeNull();
    expect(fractionOf('')).toBeNull();
    expect(fractionOf(1.5)).toBeNull();
  });
});
