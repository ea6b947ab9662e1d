import type { Kysely } from 'kysely';
import { column as c, createIndex, createLinkTable, createTable } from '../table';

/** System administration: clients, tenants, users, roles, menus, departments, dictionaries, logs, notices. */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await createTable(db, 'blade_client', false, [
    c('client_id', 'text', { notNull: true }),
    c('client_secret', 'text', { notNull: true }),
    c('resource_ids', 'text'),
    c('scope', 'text', { default: 'all' }),
    c('authorized_grant_types', 'text'),
    c('web_server_redirect_uri', 'text'),
    c('authorities', 'text'),
    c('access_token_validity', 'int', { notNull: true, default: 3600 }),
    c('refresh_token_validity', 'int', { notNull: true, default: 604800 }),
    c('additional_information', 'longtext'),
    c('autoapprove', 'text'),
  ]);
  await createIndex(db, 'blade_client', ['client_id']);

  await createTable(db, 'blade_tenant', false, [
    c('tenant_id', 'text', { notNull: true }),
    c('tenant_name', 'text', { notNull: true }),
    c('domain', 'text'),
    c('background_url', 'text'),
    c('linkman', 'text'),
    c('contact_number', 'text'),
    c('address', 'text'),
    c('account_number', 'int', { notNull: true, default: -1 }),
    c('expire_time', 'datetime'),
    c('package_id', 'id'),
    c('datasource_id', 'id'),
    c('license_key', 'longtext'),
  ]);
  await createIndex(db, 'blade_tenant', ['tenant_id']);
  await createIndex(db, 'blade_tenant', ['domain']);

  await createTable(db, 'blade_tenant_package', false, [
    c('package_name', 'text', { notNull: true }),
    c('menu_id', 'longtext'),
    c('remark', 'text'),
  ]);

  await createTable(db, 'blade_datasource', false, [
    c('name', 'text', { notNull: true }),
    c('driver_class', 'text'),
    c('url', 'text'),
    c('username', 'text'),
    c('password', 'text'),
    c('remark', 'text'),
  ]);

  await createTable(db, 'blade_user', true, [
    c('code', 'text'),
    c('user_type', 'int', { notNull: true, default: 1 }),
    c('account', 'text', { notNull: true }),
    c('password', 'text', { notNull: true }),
    c('name', 'text'),
    c('real_name', 'text'),
    c('avatar', 'text'),
    c('email', 'text'),
    c('phone', 'text'),
    c('birthday', 'datetime'),
    c('sex', 'int'),
    c('role_id', 'longtext'),
    c('dept_id', 'longtext'),
    c('post_id', 'longtext'),
    c('user_ext', 'longtext'),
  ]);
  await createIndex(db, 'blade_user', ['tenant_id', 'account']);

  await createTable(db, 'blade_user_oauth', true, [
    c('user_id', 'id'),
    c('source', 'text', { notNull: true }),
    c('uuid', 'text', { notNull: true }),
    c('username', 'text'),
    c('nickname', 'text'),
    c('avatar', 'text'),
    c('email', 'text'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'blade_user_oauth', ['source', 'uuid']);

  // Failed sign-ins per account, for the lock-out rule; kept in the database so a restart does not unlock.
  await db.schema
    .createTable('blade_login_attempt')
    .addColumn('tenant_id', 'varchar(12)', (col) => col.notNull())
    .addColumn('account', 'varchar(255)', (col) => col.notNull())
    .addColumn('failures', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', 'bigint', (col) => col.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('blade_login_attempt_pk', ['tenant_id', 'account'])
    .execute();

  // Tokens revoked by logout before they expire.
  await db.schema
    .createTable('blade_token_revocation')
    .addColumn('jti', 'varchar(40)', (col) => col.primaryKey())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .execute();

  await createTable(db, 'blade_role', true, [
    c('parent_id', 'id', { notNull: true, default: '0' }),
    c('role_name', 'text', { notNull: true }),
    c('sort', 'int', { default: 0 }),
    c('role_alias', 'text', { notNull: true }),
  ]);
  await createLinkTable(db, 'blade_role_menu', 'role_id', 'menu_id');
  await db.schema
    .createTable('blade_role_scope')
    .addColumn('id', 'varchar(20)', (col) => col.primaryKey())
    .addColumn('scope_category', 'integer', (col) => col.notNull())
    .addColumn('scope_id', 'varchar(20)', (col) => col.notNull())
    .addColumn('role_id', 'varchar(20)', (col) => col.notNull())
    .execute();
  await createIndex(db, 'blade_role_scope', ['role_id', 'scope_category']);

  await createTable(db, 'blade_menu', false, [
    c('parent_id', 'id', { notNull: true, default: '0' }),
    c('code', 'text'),
    c('name', 'text', { notNull: true }),
    c('alias', 'text'),
    c('path', 'text'),
    c('source', 'text'),
    c('sort', 'int', { default: 0 }),
    c('category', 'int', { notNull: true, default: 1 }),
    c('action', 'int', { notNull: true, default: 0 }),
    c('is_open', 'int', { notNull: true, default: 1 }),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'blade_menu', ['parent_id']);

  await createTable(db, 'blade_top_menu', true, [
    c('code', 'text'),
    c('name', 'text', { notNull: true }),
    c('source', 'text'),
    c('sort', 'int', { default: 0 }),
  ]);
  await createLinkTable(db, 'blade_top_menu_setting', 'top_menu_id', 'menu_id');

  await createTable(db, 'blade_dept', true, [
    c('parent_id', 'id', { notNull: true, default: '0' }),
    c('ancestors', 'longtext'),
    c('dept_category', 'int', { default: 1 }),
    c('dept_name', 'text', { notNull: true }),
    c('full_name', 'text'),
    c('sort', 'int', { default: 0 }),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'blade_dept', ['parent_id']);

  await createTable(db, 'blade_post', true, [
    c('category', 'int'),
    c('post_code', 'text'),
    c('post_name', 'text', { notNull: true }),
    c('sort', 'int', { default: 0 }),
    c('remark', 'text'),
  ]);

  for (const [table, tenant] of [['blade_dict', false], ['blade_dict_biz', true]] as const) {
    await createTable(db, table, tenant, [
      c('parent_id', 'id', { notNull: true, default: '0' }),
      c('code', 'text', { notNull: true }),
      c('dict_key', 'text'),
      c('dict_value', 'text', { notNull: true }),
      c('sort', 'int', { default: 0 }),
      c('remark', 'text'),
      c('is_sealed', 'int', { notNull: true, default: 0 }),
    ]);
    await createIndex(db, table, ['code', 'parent_id']);
  }

  await createTable(db, 'blade_param', true, [
    c('param_name', 'text', { notNull: true }),
    c('param_key', 'text', { notNull: true }),
    c('param_value', 'longtext', { notNull: true }),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'blade_param', ['tenant_id', 'param_key']);

  await createTable(db, 'blade_region', false, [
    c('code', 'text', { notNull: true }),
    c('parent_code', 'text', { notNull: true, default: '00' }),
    c('ancestors', 'longtext'),
    c('name', 'text', { notNull: true }),
    c('province_code', 'text'),
    c('province_name', 'text'),
    c('city_code', 'text'),
    c('city_name', 'text'),
    c('district_code', 'text'),
    c('district_name', 'text'),
    c('town_code', 'text'),
    c('town_name', 'text'),
    c('village_code', 'text'),
    c('village_name', 'text'),
    c('region_level', 'int'),
    c('sort', 'int', { default: 0 }),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'blade_region', ['code'], true);
  await createIndex(db, 'blade_region', ['parent_code']);

  await createTable(db, 'blade_scope_data', false, [
    c('menu_id', 'id', { notNull: true }),
    c('resource_code', 'text', { notNull: true }),
    c('scope_name', 'text', { notNull: true }),
    c('scope_field', 'text'),
    c('scope_class', 'text'),
    c('scope_column', 'text'),
    c('scope_type', 'int', { notNull: true, default: 1 }),
    c('scope_value', 'longtext'),
    c('remark', 'text'),
  ]);
  await createTable(db, 'blade_scope_api', false, [
    c('menu_id', 'id', { notNull: true }),
    c('resource_code', 'text', { notNull: true }),
    c('scope_name', 'text', { notNull: true }),
    c('scope_path', 'text', { notNull: true }),
    c('scope_type', 'int', { notNull: true, default: 1 }),
    c('remark', 'text'),
  ]);

  await createTable(db, 'blade_oss', true, [
    c('category', 'int', { notNull: true, default: 1 }),
    c('oss_code', 'text', { notNull: true }),
    c('endpoint', 'text'),
    c('access_key', 'text'),
    c('secret_key', 'text'),
    c('bucket_name', 'text'),
    c('app_id', 'text'),
    c('region', 'text'),
    c('remark', 'text'),
  ]);
  await createTable(db, 'blade_sms', true, [
    c('category', 'int', { notNull: true, default: 1 }),
    c('sms_code', 'text', { notNull: true }),
    c('template_id', 'text'),
    c('access_key', 'text'),
    c('secret_key', 'text'),
    c('region_id', 'text'),
    c('sign_name', 'text'),
    c('remark', 'text'),
  ]);
  await createTable(db, 'blade_attach', true, [
    c('link', 'longtext', { notNull: true }),
    c('domain', 'text'),
    c('name', 'text', { notNull: true }),
    c('original_name', 'text'),
    c('extension', 'text'),
    c('attach_size', 'bigint'),
  ]);

  const logColumns = [
    c('service_id', 'text'),
    c('server_host', 'text'),
    c('server_ip', 'text'),
    c('env', 'text'),
    c('method', 'text'),
    c('request_uri', 'longtext'),
    c('user_agent', 'longtext'),
    c('remote_ip', 'text'),
    c('params', 'longtext'),
    c('create_by', 'text'),
  ];
  await createTable(db, 'blade_log_api', true, [
    ...logColumns,
    c('type', 'text'),
    c('title', 'text'),
    c('method_class', 'text'),
    c('method_name', 'text'),
    c('time', 'int'),
  ]);
  await createTable(db, 'blade_log_error', true, [
    ...logColumns,
    c('stack_trace', 'longtext'),
    c('exception_name', 'text'),
    c('message', 'longtext'),
    c('line_number', 'int'),
    c('file_name', 'text'),
    c('method_class', 'text'),
    c('method_name', 'text'),
  ]);
  await createTable(db, 'blade_log_usual', true, [...logColumns, c('log_level', 'text'), c('log_id', 'text'), c('log_data', 'longtext')]);

  await createTable(db, 'blade_notice', true, [
    c('title', 'text', { notNull: true }),
    c('category', 'int', { notNull: true, default: 1 }),
    c('release_time', 'datetime'),
    c('content', 'longtext'),
  ]);
  await createLinkTable(db, 'blade_notice_read', 'notice_id', 'user_id');
}
