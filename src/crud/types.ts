import type { IconName } from '@blueprintjs/icons';
import type { I18n, MessageDescriptor } from '@lingui/core';
import type { ReactNode } from 'react';
import type { Resource } from '../../resources/define';
import type { Row, TreeOption } from './api';

export type { TreeOption };

/**
 * Where a tree select's nodes come from: a GET path answering a tree, or a function (closures over a parent row;
 * given the row the form edits, e.g. to leave it out of its own parent choices, and the widget's `query`).
 */
export type TreeSource = string | ((editing?: Row, query?: Readonly<Record<string, string>>) => Promise<TreeOption[]>);

/** A node of a lazily loaded tree: its children are asked for when it is opened. */
export interface LazyOption {
  id: string;
  title: string;
  hasChildren?: boolean;
}

/** One fixed choice of a select. */
export interface SelectOption {
  value: string;
  label: MessageDescriptor;
}

/** How a field is edited (and, for dictionaries and switches, shown in the table). */
export type Widget =
  | { type: 'text' }
  /** A masked text box (a new user's password). */
  | { type: 'password' }
  | { type: 'textarea'; rows?: number }
  | { type: 'number'; min?: number; max?: number }
  /** A 0/1 flag; `dict` names the dictionary whose values label it in the table (yes_no). */
  | { type: 'switch'; dict?: string }
  /** Values of a dictionary code (GET dict/dictionary?code=), shown as a tag in the table. */
  | { type: 'select'; dict: string; service?: 'dict' | 'dict-biz' }
  /** Fixed choices that have no dictionary (an alarm's state, a threshold's target type). */
  | { type: 'select'; options: readonly SelectOption[]; /** Sent as numbers (a literal union such as an MQTT client type). */ numeric?: boolean }
  | {
      type: 'tree';
      source: TreeSource;
      multiple?: boolean;
      /**
       * Parameters taken from the form's values, added to the source's GET path (or handed to a function source);
       * the nodes are loaded again when they change (a user's roles follow the tenant chosen in the form).
       */
      query?: (values: Readonly<Record<string, unknown>>) => Record<string, string> | undefined;
    }
  /**
   * A tree too large to load at once (regions), one level per call: `children('')` is the top level; `titleOf`
   * names a stored value the levels loaded so far do not show.
   */
  | { type: 'lazyTree'; children: (parent: string) => Promise<LazyOption[]>; titleOf: (value: string) => Promise<string | undefined> }
  /**
   * A calendar date typed or picked as yyyy-MM-dd (spec §2 notice date; never the browser's mm/dd/yyyy);
   * `midnight` stores it as a datetime at 00:00:00 (a birthday in a datetime column).
   */
  | { type: 'date'; midnight?: boolean }
  /** Typed or picked as yyyy-MM-dd HH:mm:ss. */
  | { type: 'datetime' }
  | { type: 'upload'; accept: 'image' | 'file' }
  | { type: 'richText' }
  /** Long read-only text (request parameters, stack traces) shown as preformatted text. */
  | { type: 'pre' };

export type FormMode = 'add' | 'edit' | 'view';

/** Columns a resource's view may name: its own fields plus the base columns. */
export type FieldName<R extends Resource> = (keyof R['fields']['shape'] & string) | BaseColumn;

type References<R extends Resource> = NonNullable<R['references']>;

/** Fields of a resource declared as references (`projectId`): their picker and table cell follow the declaration. */
export type ReferenceField<R extends Resource> = keyof References<R> & string;

/**
 * Names the server adds to a resource's rows for its references (`projectName`): a view may show one as a column
 * of its own, read-only, where the reference field itself is not the column (a device point's device name).
 */
export type ReferenceName<R extends Resource> = NonNullable<References<R>[ReferenceField<R>]>['as'] & string;

/** Base columns of every row (CONTRACT.md); tenantId on tenant-owned rows. */
export type BaseColumn = 'id' | 'tenantId' | 'createUser' | 'createDept' | 'createTime' | 'updateUser' | 'updateTime' | 'status';

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
  /** Hidden in the form, always or in some modes (a password set only on add). */
  hideInForm?: boolean | ((mode: FormMode) => boolean);
  /** Shown in the form only while the form's values pass this (the fields of one push type). */
  visibleWhen?: (values: Record<string, unknown>) => boolean;
  /** On-blur message when the value is empty; the resource's own schema checks everything else. */
  required?: MessageDescriptor;
  /** Server refusals that are about this field (a threshold's 设备没有该点位): shown at it, not as a toast. */
  refusals?: readonly MessageDescriptor[];
  /** A console-side rule beyond the resource's schema (a password policy): the message, or undefined when fine. */
  check?: (value: unknown, i18n: I18n) => string | undefined;
  /** An empty value in these modes keeps the stored one (a password on edit): neither checked nor sent. */
  keepIfBlank?: (mode: FormMode) => boolean;
  /** Value of a new row. */
  initial?: unknown;
  /** Form fields emptied when this one changes (a user's roles, depts and posts when its tenant changes). */
  clears?: readonly string[];
  disabled?: boolean | ((mode: FormMode) => boolean);
  /** Half (12) or full (24) width in the form grid; text fields default to 12. */
  span?: 12 | 24;
  /** Custom table cell. */
  cell?: (row: Row) => ReactNode;
  /** A hint under the form control (a formula's syntax), shown while the field has no problem. */
  help?: MessageDescriptor;
  /**
   * The value as the server takes it, when the form edits it otherwise (a display link's charted channels picked in a
   * tree, stored as JSON): checked against the resource's schema and sent in this form. Empty values are not passed.
   */
  wire?: (value: unknown) => unknown;
}

/** A column the server adds to each row (a joined name, the caller's read flag): shown in the table, never edited. */
export type DerivedField = FieldView<string> & { derived: true; hideInForm: true };

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

/** A toolbar button beyond add and batch delete ("上传"). */
export interface ToolbarAction {
  key: string;
  label: MessageDescriptor;
  /** An icon listed in src/ui/icons.ts. */
  icon?: IconName;
  /** Button code suffix required in the permission map (`<permission>_<suffix>`); none: always shown. */
  permission?: string;
  run(context: RowActionContext): void;
}

/**
 * The standard buttons; each can be switched off per resource, or shown to everyone ('always': a screen every user
 * has, such as the notice dialog, whatever menu buttons they hold).
 */
export interface Actions {
  view?: boolean | 'always';
  add?: boolean | 'always';
  edit?: boolean | 'always';
  delete?: boolean | 'always';
  /** 导出 (src/crud/ExportButton.tsx): on every list, with the list's own right; false leaves it out. */
  export?: boolean;
}

/** One screen's declaration: the resource it shows and how. */
export interface CrudView<R extends Resource = Resource> {
  /** Its menu (`resource.menu`) names the buttons: `<menu>_<add|edit|delete|view>` and the actions' own. */
  resource: R;
  /**
   * A field declared as a reference of the resource gets the referenced resource's picker as its widget and shows
   * the referenced row's name in the table (src/crud/references.ts) unless it says otherwise.
   */
  fields: ReadonlyArray<FieldView<FieldName<R> | ReferenceName<R>> | DerivedField>;
  list?: ListSource;
  tree?: TreeView;
  actions?: Actions;
  rowActions?: readonly RowAction[];
  toolbarActions?: readonly ToolbarAction[];
  /** The column the detail call names a row by (default id; regions: code). */
  detailBy?: FieldName<R>;
  /** Form dialog width (px or css length). */
  dialogWidth?: number | string;
  pageSize?: number;
  /** Date-range search on createTime (createTime_dategt / createTime_datelt). */
  dateRange?: boolean;
  /** Values added to every submit (a child table's parentId). */
  submitDefaults?: Record<string, unknown>;
  /** A stored row as the form edits it (a JSON list shown as picked nodes); the row itself without it. */
  toForm?: (row: Row) => Record<string, unknown>;
  /**
   * What removing these rows takes with it, shown under 确定将选择数据删除? (a project's devices, points… and the
   * recycle bin it can be restored from); a failure to tell leaves the plain question.
   */
  removeNotice?: (ids: readonly string[]) => Promise<ReactNode>;
  /** The form's body as the server takes it (the picked nodes back into the JSON list); the body itself without it. */
  toBody?: (body: Record<string, unknown>) => Record<string, unknown>;
}
