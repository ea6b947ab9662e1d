import { describe, expect, it } from 'vitest';
import { nextState } from './WorkList';

describe('work list state', () => {
  const start = { search: {}, current: 3, size: 30 };
  it('a search drops empty values, trims the rest and goes back to page 1', () => {
    expect(nextState(start, { type: 'search', search: { processDefinitionName: ' 请假 ', state: '' } })).toEqual({ search: { processDefinitionName: '请假' }, current: 1, size: 30 });
  });
  it('a page size goes back to page 1; paging keeps the search', () => {
    const searched = { search: { processDefinitionName: '请假' }, current: 2, size: 10 };
    expect(nextState(searched, { type: 'size', size: 50 })).toEqual({ search: { processDefinitionName: '请假' }, current: 1, size: 50 });
    expect(nextState(searched, { type: 'page', current: 3 })).toEqual({ ...searched, current: 3 });
    expect(nextState(searched, { type: 'page', current: 0 }).current).toBe(1);
  });
});
