import { describe, expect, it } from 'vitest';
import { categoryLabel, categoryOptions, categoryValue, deployTarget, isBpmnFileName, joinTenantIds } from './deployTarget';

const flow = [
  { dictKey: 'leave', dictValue: '请假流程' },
  { dictKey: 'expense', dictValue: '报销流程' },
];

describe('categories', () => {
  it('stores flow_<dictKey>', () => {
    expect(categoryValue('leave')).toBe('flow_leave');
    expect(categoryOptions(flow).map((o) => [o.value, o.label.message])).toEqual([
      ['flow_leave', '请假流程'],
      ['flow_expense', '报销流程'],
    ]);
  });

  it('labels a stored category by the dictionary, else shows it as stored', () => {
    expect(categoryLabel(flow, 'flow_expense')).toBe('报销流程');
    expect(categoryLabel(flow, 'leave')).toBe('leave');
    expect(categoryLabel(flow, null)).toBe('');
  });
});

describe('deployTarget', () => {
  it('sends the tenants of the platform administrator comma-joined, each once', () => {
    expect(deployTarget('flow_leave', ['100001', '000000', '100001'], true)).toEqual({ category: 'flow_leave', tenantIds: '100001,000000' });
    expect(deployTarget('flow_leave', '100001, 100002', true)).toEqual({ category: 'flow_leave', tenantIds: '100001,100002' });
  });

  it('sends no tenants when none are chosen or the caller is not the platform administrator', () => {
    expect(deployTarget('flow_leave', [], true)).toEqual({ category: 'flow_leave' });
    expect(deployTarget('flow_leave', ['100001'], false)).toEqual({ category: 'flow_leave' });
  });

  it('joins tenant ids of a picker or a text', () => {
    expect(joinTenantIds(undefined)).toBeUndefined();
    expect(joinTenantIds(' , ')).toBeUndefined();
    expect(joinTenantIds(['a', ' b '])).toBe('a,b');
  });
});

describe('isBpmnFileName', () => {
  it('takes .bpmn, .bpmn20.xml and .xml only', () => {
    expect(['a.bpmn', 'b.bpmn20.xml', 'c.XML'].every(isBpmnFileName)).toBe(true);
    expect(['a.bpmn.txt', 'b.json', 'xml'].some(isBpmnFileName)).toBe(false);
  });
});
