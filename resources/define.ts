import { z } from 'zod';

/**
 * Who owns a resource's rows.
 * - tenant: every row carries tenant_id; a caller sees and changes only its own tenant's rows.
 * - global: shared by all tenants (menus, dictionaries, regions); everyone signed in reads, only the platform
 *   administrator (administrator of tenant 000000) writes.
 * - platform: platform configuration (tenants, packages, clients); only the platform administrator reads or writes.
 */
export type Tenancy = 'tenant' | 'global' | 'platform';

/** Extra list calls some resources answer besides `list` (spec §7). */
export type ListVariant = 'page' | 'nopage' | 'nopageList' | 'select' | 'selectList' | 'selectlist';

export interface SortKey {
  field: string;
  desc?: boolean;
}

export interface UniqueRule {
  /** camelCase fields whose combination is unique among live rows (within the tenant for tenant resources). */
  fields: readonly string[];
  message: string;
  /** Unique on the whole platform, not per tenant (broker identities). */
  acrossTenants?: boolean;
}

/**
 * A field holding the id of another resource's row (docs/resources.md "References"). The CRUD builder refuses a
 * submit naming a row that is missing, removed or not the caller's to see (`missing`), adds the named row's `shows`
 * column to listed and detailed rows as `as`, and the console derives the field's picker and name column from it.
 */
export interface Reference<As extends string = string> {
  /** The resource referenced; a function, since declarations reference each other. */
  to: () => Resource;
  /** Refusal when the id names no row the caller may see, e.g. `项目不存在或无权操作`. */
  missing: string;
  /** The field the referenced row's name is added as on list and detail (`projectName`); none when absent. */
  as?: As;
  /** The referenced column shown, `name` by default. */
  shows?: string;
  /**
   * Whether a live row naming a row holds it back from removal when the referenced resource declares `inUse`; true
   * by default. Logs, and rows whose removal rule is not the referenced resource's message, say false.
   */
  holds?: boolean;
}

/** What answers carry in place of a secret shown on its row (`secretRows`); sent back unchanged, it keeps the secret. */
export const SECRET_MASK = '******';

/**
 * A field whose value is a secret on the rows whose `keyField` is one of `keys` (the param `alarm.smtp.password`): on
 * those rows it is sealed at rest like `secrets`, and answered as SECRET_MASK, so the row stays listed and editable.
 */
export interface SecretRows<Field extends string = string> {
  field: Field;
  keyField: Field;
  keys: readonly string[];
}

/**
 * `As`: the names the references add (`projectName`), kept literal so the console's views are checked against them.
 * `Table` and `Ten` keep the table's name and the tenancy literal, so the database's types are derived from the
 * declarations (resources/rows.ts, server/db/tables.ts); `Hidden` keeps the hidden fields' names, so the rows the
 * repository returns are typed without them.
 */
export interface ResourceDeclaration<
  Shape extends z.ZodRawShape,
  As extends string = string,
  Table extends string = string,
  Ten extends Tenancy = Tenancy,
  Hidden extends string = string,
> {
  /** First path segment after /api, e.g. `blade-system`. */
  service: string;
  /** Second path segment, e.g. `param`. */
  name: string;
  /**
   * The menu whose screen manages the rows (docs/authorisation.md): reading needs the menu, writing its buttons
   * `<menu>_add`, `<menu>_edit`, `<menu>_delete`; the select variants serve every screen's pickers. The console's
   * screens show their buttons by the same codes.
   */
  menu: string;
  /** Base path of the generic routes when it is not `/service/name` (BladeX serves users at `/blade-user/…`). */
  path?: string;
  table: Table;
  tenancy: Ten;
  /** The entity's own fields (camelCase, base columns excluded); validates submit bodies. */
  fields: z.ZodObject<Shape>;
  variants?: readonly ListVariant[];
  /** Default order of list calls when the caller gives none. */
  orderBy?: readonly SortKey[];
  unique?: readonly UniqueRule[];
  /**
   * Served only by its module's own calls, never by the generic routes (device groups: the device tree's group
   * calls, whose writes check levels and cycles).
   */
  ownRoutes?: boolean;
  /** Read-only resources (logs) get no submit or remove. */
  readOnly?: boolean;
  /** Fields never sent to clients (password hashes): the repository's rows leave them out, and their type says so. */
  hidden?: readonly Hidden[];
  /**
   * Hidden fields holding secrets the server uses in clear to connect elsewhere (an S3 secret key, a push target's
   * password): sealed at rest with AES-256-GCM by the repository on every write, opened only for the server's own use
   * (`Repository.reveal`), never answered (docs/security.md "Secrets at rest"). Only hidden fields may be named.
   */
  secrets?: readonly NoInfer<Hidden>[];
  /** A field that holds a secret on some rows only (the param whose key is the SMTP password): see SecretRows. */
  secretRows?: SecretRows<Extract<keyof Shape, string>>;
  /**
   * Field naming the project a row belongs to (server/db/project-scope.ts): rows of projects in the recycle bin are
   * hidden, and a user assigned to projects sees only theirs. With `projectThrough` the field holds the id of another
   * row, and each hop `table.column` leads on to the project id (`['wit_device.project_id']`).
   */
  projectField?: string;
  projectThrough?: readonly string[];
  /** Fields naming rows of other resources, by field. */
  references?: Readonly<Partial<Record<Extract<keyof Shape, string>, Reference<As>>>>;
  /**
   * Remove refuses rows still named by a live row through another resource's declared reference, with this message
   * (`设备类型已被使用,不能删除`). Without it, references do not hold a row back (a project goes to the recycle bin
   * with its devices).
   */
  inUse?: string;
  /** Field holding the parent id for tree resources; remove refuses rows that still have children. */
  parentField?: string;
  /**
   * A valid submit body. Documents the resource and lets the contract and tenant-isolation suites create rows of
   * every resource without knowing it; required for writable resources.
   */
  example?: Readonly<Record<string, unknown>>;
}

export interface Resource<
  Shape extends z.ZodRawShape = z.ZodRawShape,
  As extends string = string,
  Table extends string = string,
  Ten extends Tenancy = Tenancy,
  Hidden extends string = string,
> extends ResourceDeclaration<Shape, As, Table, Ten, Hidden> {
  /** `service/name`, the resource's identity in scopes and logs. */
  key: string;
  /** Every camelCase column: base columns plus the entity's fields. */
  columns: readonly string[];
  /** How each column compares in filters. */
  kinds: Readonly<Record<string, FieldKind>>;
}

/** `ref` holds another row's id: a plain filter on it means equality, not LIKE. */
export type FieldKind = 'text' | 'ref' | 'number' | 'datetime';

/** Marks string fields that hold `yyyy-MM-dd HH:mm:ss` dates, so filters compare them as dates. */
export const fieldKinds = z.registry<{ kind: FieldKind }>();

/** Base columns of every table (CONTRACT.md "Base columns"); tenant_id is added for tenant resources. */
export const BASE_KINDS: Readonly<Record<string, FieldKind>> = {
  id: 'text',
  createUser: 'text',
  createDept: 'text',
  createTime: 'datetime',
  updateUser: 'text',
  updateTime: 'datetime',
  status: 'number',
  isDeleted: 'number',
};

function kindOf(schema: z.ZodType): FieldKind {
  const registered = fieldKinds.get(schema);
  if (registered) return registered.kind;
  const def = schema._zod.def as { type: string; innerType?: z.ZodType; in?: z.ZodType; options?: z.ZodType[]; values?: unknown[] };
  if (def.innerType) return kindOf(def.innerType);
  if (def.type === 'pipe' && def.in) return kindOf(def.in);
  if (def.type === 'union' && def.options?.length) return kindOf(def.options[0]);
  // A boolean is stored as 0 or 1, and filtered as the number.
  if (def.type === 'number' || def.type === 'int' || def.type === 'bigint' || def.type === 'boolean') return 'number';
  if (def.type === 'literal' && typeof def.values?.[0] === 'number') return 'number';
  return 'text';
}

export function defineResource<
  Shape extends z.ZodRawShape,
  As extends string = never,
  Table extends string = string,
  Ten extends Tenancy = Tenancy,
  // Hidden names are the declaration's own fields: a misspelt one is a compile error, not a password sent out.
  Hidden extends Extract<keyof Shape, string> = never,
>(declaration: ResourceDeclaration<Shape, As, Table, Ten, Hidden>): Resource<Shape, As, Table, Ten, Hidden> {
  const kinds: Record<string, FieldKind> = { ...BASE_KINDS };
  if (declaration.tenancy === 'tenant') kinds.tenantId = 'text';
  for (const [field, schema] of Object.entries(declaration.fields.shape)) kinds[field] = kindOf(schema as z.ZodType);
  return {
    ...declaration,
    key: `${declaration.service}/${declaration.name}`,
    columns: Object.keys(kinds),
    kinds,
  };
}
