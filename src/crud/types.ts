import type { IconName } from '@blueprintjs/icons';
import type { MessageDescriptor } from '@lingui/core';
import type { ReactNode } from 'react';
import type { Resource } from '../../resources/define';
import type { Row } from './api';

/** A node of a tree select (BladeX TreeNode: title shown, id kept). */
export interface TreeOption {
  id: string;
  title: string;
  children?: TreeOption[];
}

/** Where a tree select's nodes come from: a GET path answering a tree, or a function (closures over a parent row). */
export type TreeSource = string | (() => Promise<TreeOption[]>);

/** How a field is edited (and, for dictionaries and switches, shown in the table). */
export type Widget =
  | { type: 'text' }
  | { type: 'textarea'; rows?: number }
  | { type: 'number'; min?: number; max?: number }
  /** A 0/1 flag; `dict` names the dictionary whose values label it in the table (yes_no). */
  | { type: 'switch'; dict?: string }
  /** Values of a dictionary code (GET dict/dictionary?code=), shown as a tag in the table. */
  | { type: 'select'; dict: string; service?: 'dict' | 'dict-biz' }
  | { type: 'tree'; source: TreeSource; multiple?: boolean }
  | { type: 'date' }
  | { type: 'datetime' }
  | { type: 'upload'; accept: 'image' | 'file' }
  | { type: 'richText' };

export type FormMode = 'add' | 'edit' | 'view';

/** Columns a resource's view may name: its own fields plus the base columns. */
export type FieldName<R extends Resource> = (keyof R['fields']['shape'] & string) | BaseColumn;

/** Base columns of every row (CONTRACT.md). */
export type BaseColumn = 'id' | 'createUser' | 'createDept' | 'createTime' | 'updateUser' | 'updateTime' | 'status';

/** How one column shows and edits; N is the union of the resource's column names. */
export interface FieldView<N extends string = string> {
  name: N;
  label: MessageDescriptor;
  widget?: Widget;
  /** Shown in the search bar. */
  search?: boolean;
  /** Column width in the table (px). */
  width?: number;
  sortable?: boolean;
  hideInTable?: boolean;
  hideInForm?: boolean;
  /** On-blur message when the value is empty; the resource's own schema checks everything else. */
  required?: MessageDescriptor;
  /** Value of a new row. */
  initial?: unknown;
  disabled?: boolean | ((mode: FormMode) => boolean);
  /** Half (12) or full (24) width in the form grid; text fields default to 12. */
  span?: 12 | 24;
  /** Custom table cell. */
  cell?: (row: Row) => ReactNode;
}

/** Which list call the page uses and what it always sends. */
export interface ListSource {
  /** Call name under the resource's base: list (default), parent-list, child-list, page… */
  call?: string;
  /** Fixed parameters of every list call (parentId of a child table). */
  params?: Record<string, string>;
}

/** Lazy children of a tree table: rows with hasChildren (or without the flag) load their children on expand. */
export interface TreeView {
  children(row: Row): Promise<Row[]>;
}

export interface RowActionContext {
  openForm(mode: FormMode, row?: Row, initial?: Record<string, unknown>): void;
  refresh(): void;
}

/** A row button beyond view/edit/delete ("字典配置", "新增子项", "重置密码"…). */
export interface RowAction {
  key: string;
  label: MessageDescriptor;
  /** An icon listed in src/ui/icons.ts. */
  icon?: IconName;
  /** Button code suffix required in the permission map (`<permission>_<suffix>`); none: always shown. */
  permission?: string;
  visible?: (row: Row) => boolean;
  run(row: Row, context: RowActionContext): void;
}

/** The standard buttons; each can be switched off per resource. */
export interface Actions {
  view?: boolean;
  add?: boolean;
  edit?: boolean;
  delete?: boolean;
}

/** One screen's declaration: the resource it shows and how. */
export interface CrudView<R extends Resource = Resource> {
  resource: R;
  /** Menu code: buttons are `<permission>_<add|edit|delete|view>`. */
  permission: string;
  fields: ReadonlyArray<FieldView<FieldName<R>>>;
  list?: ListSource;
  tree?: TreeView;
  actions?: Actions;
  rowActions?: readonly RowAction[];
  /** Form dialog width (px or css length). */
  dialogWidth?: number | string;
  pageSize?: number;
  /** Date-range search on createTime (createTime_dategt / createTime_datelt). */
  dateRange?: boolean;
  /** Values added to every submit (a child table's parentId). */
  submitDefaults?: Record<string, unknown>;
}
