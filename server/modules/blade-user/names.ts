import type { Db, Row } from '../../db/database';
import { splitIds } from './tenancy';
import { loose, type TableName } from '../../db/tables';

/** Labels of one dictionary's entries, by key (e.g. `sex`: 1 -> 男). */
export async function dictLabels(db: Db, code: string): Promise<Map<string, string>> {
  const rows = await db
    .selectFrom('blade_dict')
    .select(['dictKey', 'dictValue'])
    .where('code', '=', code)
    .where('parentId', '<>', '0')
    .where('isDeleted', '=', 0)
    .execute();
  return new Map(rows.map((r) => [String(r.dictKey), r.dictValue]));
}

/** `column` of the rows of `table` whose `key` is among `keys`. */
async function labels(db: Db, table: TableName, key: string, column: string, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  // Columns named by the caller: the untyped view, the table name checked.
  const rows = await loose(db).selectFrom(table).select([key, column]).where(key, 'in', keys).execute();
  return new Map(rows.map((r) => [String(r[key]), String(r[column])]));
}

const idsIn = (rows: Row[], field: string) => [...new Set(rows.flatMap((r) => splitIds(r[field])))];

const joined = (value: unknown, names: Map<string, string>) =>
  splitIds(value)
    .map((id) => names.get(id))
    .filter(Boolean)
    .join(',');

/** Adds the names the user list shows next to the ids: roles, depts, posts, tenant, sex and platform. */
export async function decorateUsers(db: Db, rows: Row[]): Promise<Row[]> {
  if (rows.length === 0) return rows;
  const tenantIds = [...new Set(rows.map((r) => String(r.tenantId)))];
  const [roles, depts, posts, tenants, sexes, userTypes] = await Promise.all([
    labels(db, 'blade_role', 'id', 'roleName', idsIn(rows, 'roleId')),
    labels(db, 'blade_dept', 'id', 'deptName', idsIn(rows, 'deptId')),
    labels(db, 'blade_post', 'id', 'postName', idsIn(rows, 'postId')),
    labels(db, 'blade_tenant', 'tenantId', 'tenantName', tenantIds),
    dictLabels(db, 'sex'),
    dictLabels(db, 'user_type'),
  ]);
  return rows.map((r) => ({
    ...r,
    roleName: joined(r.roleId, roles),
    deptName: joined(r.deptId, depts),
    postName: joined(r.postId, posts),
    tenantName: tenants.get(String(r.tenantId)) ?? '',
    sexName: r.sex == null ? '' : (sexes.get(String(r.sex)) ?? ''),
    userTypeName: r.userType == null ? '' : (userTypes.get(String(r.userType)) ?? ''),
  }));
}
