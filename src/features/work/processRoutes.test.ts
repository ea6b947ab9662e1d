import { describe, expect, it } from 'vitest';
import { resolveRoute } from '../../app/routes';
import { screenHeld } from '../registry';
import { detailPath, type FlowRouteEntry, formOfKey, formPath, handlePath, parseProcessPath, processPageHeld, routeValueOf } from './processRoutes';

const entries: FlowRouteEntry[] = [
  { code: 'flow', dictKey: 'leave', dictValue: '请假流程', remark: 'leave' },
  { code: 'flow', dictKey: 'alarm', dictValue: '告警处置', remark: 'alarm' },
  { code: 'flow', dictKey: 'purchase', dictValue: '采购', remark: '' },
  { code: 'flow', dictKey: 'trip', dictValue: '出差', remark: 'trip' },
];

describe('flow routes from the dictionary (spec §3 "Flow route")', () => {
  it('the route of a category is the remark of the entry whose code_dictKey it is', () => {
    expect(routeValueOf(entries, 'flow_leave')).toBe('leave');
    expect(routeValueOf(entries, 'flow_alarm')).toBe('alarm');
    expect(routeValueOf(entries, 'flow_purchase')).toBeUndefined();
    expect(routeValueOf(entries, 'leave')).toBeUndefined();
    expect(routeValueOf(entries, 'flow_missing')).toBeUndefined();
    expect(routeValueOf(entries, null)).toBeUndefined();
  });

  it('follows the remark, not the key: an entry routed elsewhere opens that route', () => {
    const renamed = [{ code: 'flow', dictKey: 'vacation', dictValue: '休假', remark: 'leave' }];
    expect(formPath(renamed, { id: '7', category: 'flow_vacation' })).toBe('/work/process/leave/form/7');
  });

  it('builds the form, handle and detail paths of the spec', () => {
    expect(formPath(entries, { id: '1001', category: 'flow_leave' })).toBe('/work/process/leave/form/1001');
    expect(handlePath(entries, { taskId: '5', processInstanceId: '6', businessId: '7', category: 'flow_leave' })).toBe('/work/process/leave/handle/5/6/7');
    expect(detailPath(entries, { processInstanceId: '6', businessId: '7', category: 'flow_leave' })).toBe('/work/process/leave/detail/6/7');
    expect(handlePath(entries, { taskId: '5', processInstanceId: '6', businessId: '8', category: 'flow_alarm' })).toBe('/work/process/alarm/handle/5/6/8');
    expect(detailPath(entries, { processInstanceId: '6', businessId: '8', category: 'flow_alarm' })).toBe('/work/process/alarm/detail/6/8');
  });

  it('has no form for a process that starts by itself (an alarm\'s disposal)', () => {
    expect(formPath(entries, { id: '1', category: 'flow_alarm' })).toBeUndefined();
  });

  it('opens the general pages for a process whose category names no business of the console\'s', () => {
    // No route, no entry, a route the console has no page for, no category at all: the general form and pages.
    expect(formPath(entries, { id: '1', category: 'flow_purchase' })).toBe('/work/process/process/form/1');
    expect(formPath(entries, { id: '1', category: 'flow_trip' })).toBe('/work/process/process/form/1');
    expect(detailPath(entries, { processInstanceId: '6', businessId: '7', category: '' })).toBe('/work/process/process/detail/6/7');
    // Without a business record the instance is its own: its id is the route's business id.
    expect(handlePath(entries, { taskId: '5', processInstanceId: '6', businessId: null, category: null })).toBe('/work/process/process/handle/5/6/6');
    expect(parseProcessPath('/work/process/process/form/1')).toEqual({ page: 'form', business: 'process', processDefinitionId: '1' });
  });

  it('opens the form a task\'s form key names, else its category\'s, else the general one', () => {
    const task = { taskId: '5', processInstanceId: '6', businessId: '7', category: 'flow_leave' };
    expect(handlePath(entries, { ...task, formKey: 'alarm' })).toBe('/work/process/alarm/handle/5/6/7');
    // The general form shows the instance itself: its id is the business id.
    expect(handlePath(entries, { ...task, formKey: ' process ' })).toBe('/work/process/process/handle/5/6/6');
    // A key the console has no form for, or none: the category decides, and without one the general form.
    expect(handlePath(entries, { ...task, formKey: 'embedded:app:forms/leave.html' })).toBe('/work/process/leave/handle/5/6/7');
    expect(handlePath(entries, { ...task, formKey: null })).toBe('/work/process/leave/handle/5/6/7');
    expect(handlePath(entries, { ...task, category: 'flow_purchase', formKey: 'toString' })).toBe('/work/process/process/handle/5/6/7');
    expect(formOfKey('leave')).toBe('leave');
    expect(formOfKey('__proto__')).toBeUndefined();
  });
});

describe('process pages', () => {
  it('parses the three pages and nothing else', () => {
    expect(parseProcessPath('/work/process/leave/form/1001')).toEqual({ page: 'form', business: 'leave', processDefinitionId: '1001' });
    expect(parseProcessPath('/work/process/leave/handle/5/6/7')).toEqual({ page: 'handle', business: 'leave', taskId: '5', processInstanceId: '6', businessId: '7' });
    expect(parseProcessPath('/work/process/alarm/detail/6/8/')).toEqual({ page: 'detail', business: 'alarm', processInstanceId: '6', businessId: '8' });
    for (const path of [
      '/work/process/alarm/form/1',
      '/work/process/leave/form',
      '/work/process/leave/form/1/2',
      '/work/process/leave/handle/5/6',
      '/work/process/leave/detail/6',
      '/work/process/trip/detail/6/7',
      '/work/process/toString/detail/6/7',
      '/work/process/leave/edit/6/7',
      '/work/todo',
      '/x/work/process/leave/form/1',
      '/work/process/leave/detail/6/%E0%A4%A',
    ]) {
      expect(parseProcessPath(path), path).toBeUndefined();
    }
  });

  it('are routes of the layout; other process-like paths are 404', () => {
    const form = resolveRoute('/work/process/leave/form/1001');
    const handle = resolveRoute('/work/process/alarm/handle/5/6/7');
    const detail = resolveRoute('/work/process/leave/detail/6/7');
    for (const resolved of [form, handle, detail]) expect(resolved.kind === 'route' && resolved.route.layout).toBe(true);
    expect(form.kind === 'route' && handle.kind === 'route' && form.route.component !== handle.route.component).toBe(true);
    // One handle page and one detail page for every business.
    const leaveHandle = resolveRoute('/work/process/leave/handle/1/2/3');
    expect(leaveHandle.kind === 'route' && handle.kind === 'route' && leaveHandle.route.component === handle.route.component).toBe(true);
    expect(resolveRoute('/work/process/alarm/form/1')).toEqual({ kind: 'redirect', to: '/404' });
    expect(resolveRoute('/work/process/leave/handle/1')).toEqual({ kind: 'redirect', to: '/404' });
  });

  it('are held by the work menus whose lists lead to them (403 otherwise)', () => {
    const held = (...paths: string[]) => new Set(paths);
    expect(processPageHeld('/work/process/leave/form/1', held('/work/start'))).toBe(true);
    expect(processPageHeld('/work/process/leave/form/1', held('/work/todo'))).toBe(false);
    expect(processPageHeld('/work/process/leave/handle/1/2/3', held('/work/claim'))).toBe(true);
    expect(processPageHeld('/work/process/leave/handle/1/2/3', held('/work/send'))).toBe(false);
    expect(processPageHeld('/work/process/alarm/detail/2/3', held('/flow/follow'))).toBe(true);
    expect(processPageHeld('/work/process/alarm/detail/2/3', held('/work/done'))).toBe(true);
    expect(processPageHeld('/work/process/alarm/detail/2/3', held('/system/user'))).toBe(false);
    expect(processPageHeld('/work/todo', held())).toBeUndefined();
    expect(screenHeld('/work/process/leave/form/1', held('/system/user'))).toBe(false);
    expect(screenHeld('/work/process/leave/form/1', held('/work/start'))).toBe(true);
    expect(screenHeld('/work/todo', held('/work/todo'))).toBe(true);
    expect(screenHeld('/work/todo', held('/work/start'))).toBe(false);
  });
});
