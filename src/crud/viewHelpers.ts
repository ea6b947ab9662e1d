import type { DerivedField, SelectOption } from './types';

/** A column the server's list adds (a joined name): shown in the table, never edited or sorted. */
export const derived = (name: string, label: DerivedField['label'], width = 140): DerivedField => ({ name, label, derived: true, hideInForm: true, width, sortable: false });

/** A select of fixed choices that have no dictionary. */
export const options = (...choices: Array<[string, SelectOption['label']]>): { type: 'select'; options: SelectOption[] } => ({
  type: 'select',
  options: choices.map(([value, label]) => ({ value, label })),
});

/** Fixed choices sent as numbers (a resource declaring a literal union, such as an MQTT client type). */
export const numericOptions = (...choices: Array<[string, SelectOption['label']]>) => ({ ...options(...choices), numeric: true });

/** The buttons of a read-only list (logs, audit trails): every row can be viewed, nothing changed. */
export const READ_ONLY = { view: 'always', add: false, edit: false, delete: false } as const;
