import { describe, expect, it } from 'vitest';
import { humanSize } from './attachView';

describe('humanSize', () => {
  it('shows bytes as they are and larger sizes with two decimals', () => {
    expect(humanSize(0)).toBe('0 B');
    expect(humanSize(1023)).toBe('1023 B');
    expect(humanSize(1536)).toBe('1.50 KB');
    expect(humanSize(5 * 1024 * 1024)).toBe('5.00 MB');
  });

  it('leaves missing or broken sizes empty', () => {
    expect(humanSize(null)).toBe('0 B');
    expect(humanSize(undefined)).toBe('');
    expect(humanSize('abc')).toBe('');
    expect(humanSize(-1)).toBe('');
  });
});
