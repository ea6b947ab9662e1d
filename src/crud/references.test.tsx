import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { I18nProvider } from '@lingui/react';
import { createRoot } from 'react-dom/client';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineResource } from '../../resources/define';
import { activate } from '../app/i18n';
import { pickerOf, pickerSource, withReferences } from './references';
import type { CrudView, FieldView } from './types';
import { FieldCell } from './widgets';

/** What a view's fields get from the references its resource declares: pickers and name columns. */

const owner = { service: 'wit-test', menu: 'test', tenancy: 'tenant' } as const;
const customer = defineResource({ ...owner, name: 'customer', table: 't_customer', variants: ['page', 'selectList', 'select'], fields: z.object({ name: z.string() }) });
const person = defineResource({ ...owner, name: 'person', path: '/blade-person', table: 't_person', variants: ['selectlist'], fields: z.object({ name: z.string() }) });
const note = defineResource({ ...owner, name: 'note', table: 't_note', fields: z.object({ name: z.string() }) });
const project = defineResource({
  ...owner,
  name: 'project',
  table: 't_project',
  fields: z.object({ name: z.string(), customerId: z.string(), managerId: z.string(), noteId: z.string(), helperId: z.string() }),
  references: {
    customerId: { to: () => customer, missing: '客户不存在', as: 'customerName' },
    managerId: { to: () => person, missing: '人员不存在', as: 'managerName' },
    noteId: { to: () => note, missing: '记录不存在' },
    helperId: { to: () => person, missing: '人员不存在' },
  },
});

const view: CrudView<typeof project> = {
  resource: project,
  fields: [
    { name: 'name', label: msg`项目名称` },
    { name: 'customerId', label: msg`项目客户`, search: true, width: 140 },
    { name: 'managerId', label: msg`负责人`, widget: { type: 'tree', source: 'api/blade-person/selectlist?active=1', multiple: true } },
    { name: 'noteId', label: msg`记录` },
    { name: 'helperId', label: msg`协助人`, hideInTable: true },
    { name: 'managerName', label: msg`负责人姓名` },
  ],
};

const fieldsOf = (resolved: CrudView<typeof project>) => new Map<string, FieldView>(resolved.fields.map((f) => [f.name, f]));

beforeAll(async () => {
  await activate('zh');
});

describe('declared references in views', () => {
  it("picks from the referenced resource's first declared select call, at its declared path", () => {
    expect(pickerSource(customer)).toBe('api/wit-test/customer/selectList');
    expect(pickerSource(person)).toBe('api/blade-person/selectlist');
    expect(pickerSource(note)).toBeUndefined();
  });

  it('builds the picker of fields no single reference implies, and refuses a resource that has none', () => {
    expect(pickerOf(customer, { multiple: true })).toEqual({ type: 'tree', source: 'api/wit-test/customer/selectList', multiple: true });
    expect(() => pickerOf(note)).toThrow('wit-test/note declares no select call');
  });

  it('gives a reference field its picker unless the view gives a widget', () => {
    const fields = fieldsOf(withReferences(view));
    expect(fields.get('customerId')?.widget).toEqual({ type: 'tree', source: 'api/wit-test/customer/selectList' });
    expect(fields.get('managerId')?.widget).toEqual({ type: 'tree', source: 'api/blade-person/selectlist?active=1', multiple: true });
    expect(fields.get('helperId')?.widget).toEqual({ type: 'tree', source: 'api/blade-person/selectlist' });
    // No select call to pick from: the field is left as the view wrote it.
    expect(fields.get('noteId')?.widget).toBeUndefined();
    expect(fields.get('name')).toBe(view.fields[0]);
  });

  it('shows the referenced name in the table in place of the id, unsorted, searched as before', () => {
    const fields = fieldsOf(withReferences(view));
    const customerId = fields.get('customerId');
    expect(customerId?.cell?.({ id: '1', customerId: '42', customerName: '鑫德' })).toBe('鑫德');
    expect(customerId).toMatchObject({ sortable: false, search: true, width: 140 });
    expect(customerId?.hideInTable).toBeUndefined();
    expect(fields.get('helperId')).toMatchObject({ hideInTable: true });
    // Without an `as` there is no name to show: the field is left to the view.
    expect(fields.get('noteId')?.cell).toBeUndefined();
    expect(fields.get('noteId')?.sortable).toBeUndefined();
  });

  it('keeps a column naming a referenced row out of the form', () => {
    expect(fieldsOf(withReferences(view)).get('managerName')).toMatchObject({ hideInForm: true, sortable: false });
  });

  it('renders the name in the table cell', async () => {
    const host = document.createElement('div');
    const root = createRoot(host);
    const field = fieldsOf(withReferences(view)).get('customerId');
    if (!field) throw new Error('no customerId field');
    root.render(<I18nProvider i18n={i18n}><FieldCell field={field} row={{ id: '1', customerId: '42', customerName: '鑫德' }} /></I18nProvider>);
    await vi.waitFor(() => expect(host.textContent).toBe('鑫德'));
    root.unmount();
  });

  it('refuses a name no reference adds', () => {
    const typo: CrudView<typeof project> = {
      resource: project,
      // @ts-expect-error customerNme is neither a field of the project nor a name its references add
      fields: [{ name: 'customerNme', label: msg`项目客户` }],
    };
    expect(typo.fields).toHaveLength(1);
  });
});
