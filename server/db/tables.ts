import type { ColumnType, Kysely, Transaction } from 'kysely';
import type { RESOURCES } from '../../resources';
import type { BaseRow, RowOf } from '../../resources/rows';
import type { Cell } from '../series/cells';

/**
 * The database's tables, typed (issue #13): a renamed or misspelt column is a compile error wherever it is selected or
 * compared. Declared resources' tables are derived from their declarations (resources/rows.ts); the others are written
 * here column by column from the migrations (server/db/migrations), camelCase as Kysely's CamelCasePlugin presents them.
 * docs/resources.md "Typed rows" explains the choices.
 */

/** The table of each declared resource (resources/index.ts); resources sharing a table (`viewdevice`) share its row. */
export type DeclaredTables = { [R in (typeof RESOURCES)[number] as R['table']]: RowOf<R> };

/** Columns of declared tables that are not fields of their declaration: written only by the server itself. */
interface UndeclaredColumns {
  /** 0001: extra user attributes, JSON text. */
  blade_user: { userExt: string | null };
  /** 0006: when the alarm reached its level, epoch ms. */
  wit_alarm: { levelAt: number | null; processInstanceId: string | null };
  /** 0015: the occurrence the strategy last fired, epoch ms. */
  wit_collect_strategy: { lastFired: number | null };
  /**
   * 0018: JSON {pointKey: [ts, value, previous]}, the ingestion's write-back (server/ingest/latest.ts); 0026: when the
   * values written back were heard, epoch ms.
   */
  wit_device: { lastChannels: string | null; lastValuesAt: number | null };
}

/** The base columns of a table made with createTable (server/db/table.ts), tenant-owned, for the hand-declared ones below. */
type Audited = BaseRow & { tenantId: string };

/** A link table (createLinkTable): its id and the two ids it links. */
type Link<Left extends string, Right extends string> = { id: string } & Record<Left | Right, string>;

/** A month's points: the total and each day's count (`d1`…`d31`, by day of the month). */
export type DayCounts = { total: number } & { [D in DayColumn]: number };
/** A day's column of a counter row. */
export type DayColumn = `d${1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14 | 15 | 16 | 17 | 18 | 19 | 20 | 21 | 22 | 23 | 24 | 25 | 26 | 27 | 28 | 29 | 30 | 31}`;

/** Tables that are no declared resource: link tables, time series, sign-in and seed bookkeeping. */
export interface HandTables {
  // 0001 system
  blade_login_attempt: { tenantId: string; account: string; address: string; failures: number; lockedUntil: number; lastFailure: number };
  blade_token_revocation: { jti: string; expiresAt: number };
  blade_role_menu: Link<'roleId', 'menuId'>;
  blade_role_scope: { id: string; scopeCategory: number; scopeId: string; roleId: string };
  blade_top_menu_setting: Link<'topMenuId', 'menuId'>;
  blade_notice_user: Link<'noticeId', 'userId'>;
  blade_notice_read: Link<'noticeId', 'userId'>;
  blade_user_oauth: Audited & {
    userId: string | null;
    source: string;
    uuid: string;
    username: string | null;
    nickname: string | null;
    avatar: string | null;
    email: string | null;
    remark: string | null;
  };
  // 0005 ingest, 0011 rollups: the time series (server/series)
  /** Keyed by device, time and channel; no tenant of its own (migration 0020): a point belongs to its device. */
  wit_device_log: { deviceId: string; pointKey: string; ts: number; value: number; raw: number };
  /** A cell of a channel's series (server/series/cells.ts) per step and bucket. */
  wit_device_log_rollup: { deviceId: string; pointKey: string; step: number; bucket: number } & Omit<Cell, 't'>;
  wit_device_log_dirty: { deviceId: string; hour: number };
  wit_device_log_rolling: { deviceId: string; hour: number };
  // 0006 alarms: one notification of one person by one channel (server/alarms/notifier.ts)
  wit_alarm_delivery: Audited & {
    alarmId: string;
    projectId: string | null;
    revision: number;
    round: number;
    personKey: string;
    recipientId: string | null;
    userId: string | null;
    channel: string;
    state: number;
    attempts: number;
    dueAt: number;
    claimedAt: number | null;
    readingTs: number | null;
    lastError: string | null;
  };
  // 0016 statistics (docs/statistics.md): points and alarms per device and project per day, one row a month; online samples
  wit_device_points: { deviceId: string; month: string } & DayCounts;
  /** One row per stripe: each connection of PostgreSQL's series writer adds to its own (server/db/tally.cjs); readers sum them. */
  wit_project_points: { tenantId: string; projectId: string; month: string; stripe: number } & DayCounts;
  wit_presence_sample: { tenantId: string; grain: number; at: number; projectId: string; devices: number; online: number };
  /** Alarms raised per day, kept by triggers on wit_alarm. */
  wit_alarm_counts: { tenantId: string; projectId: string; alarmLevel: number; month: string } & DayCounts;
  wit_device_alarms: { deviceId: string; month: string } & DayCounts;
  // 0020 tenant purges (server/modules/blade-system/access/tenant-purge.ts): one row per purge, kept when done
  blade_tenant_purge: BaseRow & {
    tenantCode: string;
    tenantName: string | null;
    state: number;
    deleted: number;
    step: string | null;
    finishTime: string | null;
    lastError: string | null;
  };
  // 0019 workflow (docs/workflow.md): who may claim a task (kind 1 user, 2 role, 3 dept), and timers waiting on instances
  wf_task_candidate: { id: string; taskId: string; kind: number; ref: string };
  wf_timer: { id: string; tenantId: string; instanceId: string; elementId: string; executionId: string; dueAt: number };
  // 0014 seed steps (server/db/seed/runner.ts)
  vigil_seed_step: { name: string; runAt: string };
  // 0022 cluster (server/cluster/leases.ts)
  vigil_lease: { name: string; holder: string; token: number; period: number; expiresAt: number };
  // 0023 fast verifiers of broker identities (server/ingest/credentials.ts)
  wit_mqtt_verifier: { userId: string; tenantId: string; passwordHash: string; verifier: string };
}

/** Every table's row as a select returns it. */
export type Tables = {
  [T in keyof DeclaredTables]: T extends keyof UndeclaredColumns ? DeclaredTables[T] & UndeclaredColumns[T] : DeclaredTables[T];
} & HandTables;

/**
 * Kysely's schema: selects, where and order by are checked against the row types; inserts and updates take any value
 * for a known column (`ColumnType<Select, unknown, unknown>`). The CRUD layer writes generic records it validated with
 * the declaration's zod schema (`Record<string, unknown>`), which a strict insert type would refuse; an object literal
 * written by a module is still checked for its column names (excess properties).
 */
export type Schema = { [T in keyof Tables]: { [C in keyof Tables[T]]: ColumnType<Tables[T][C], unknown, unknown> } };

/** A table's name, checked: for helpers that take the table as an argument and write it through `loose`. */
export type TableName = keyof Schema;

/**
 * The database seen untyped: for mechanism code that names tables and columns at run time from declarations (the
 * scoped repository, references, data scopes, filters, the seed writer). Reach it with `loose(db)`, visibly.
 */
export type LooseSchema = Record<string, Record<string, unknown>>;
export type LooseDb = Kysely<LooseSchema>;

/** The same database, untyped: the caller names tables and columns at run time (see LooseSchema). */
export function loose(db: Kysely<Schema> | Transaction<Schema>): LooseDb {
  return db as unknown as LooseDb;
}

/** A declaration whose table is not a string literal would give every name a row and check nothing: refused here. */
type Literal<T extends true> = T;
export type TablesAreLiteral = Literal<string extends keyof DeclaredTables ? false : true>;
