import type { Kysely } from 'kysely';
import { column as c, createIndex, createTable } from '../table';

/** The monitoring domain: projects, the device catalogue, gateways, devices and their points, monitor points. */
// Migrations run against the schema of their own time, not today's, so they take an untyped Kysely.
export async function up(db: Kysely<any>): Promise<void> {
  await createTable(db, 'wit_project_category', true, [
    c('parent_id', 'id', { notNull: true, default: '0' }),
    c('name', 'text', { notNull: true }),
    c('code', 'text'),
    c('sort', 'int'),
    c('remark', 'text'),
  ]);
  await createTable(db, 'wit_project_customer', true, [
    c('name', 'text', { notNull: true }),
    c('linkman', 'text'),
    c('phone', 'text'),
    c('address', 'text'),
    c('remark', 'text'),
  ]);
  await createTable(db, 'wit_project', true, [
    c('name', 'text', { notNull: true }),
    c('code', 'text'),
    c('category_id', 'id'),
    c('structure_type', 'int'),
    c('region_code', 'text'),
    c('address', 'text'),
    c('longitude', 'double'),
    c('latitude', 'double'),
    c('customer_id', 'id'),
    c('project_state', 'int', { notNull: true, default: 1 }),
    c('start_date', 'datetime'),
    c('end_date', 'datetime'),
    c('pt_project_id', 'text'),
    c('remark', 'longtext'),
  ]);
  await createTable(db, 'wit_user_project', true, [c('user_id', 'id', { notNull: true }), c('project_id', 'id', { notNull: true })]);
  await createIndex(db, 'wit_user_project', ['user_id', 'is_deleted']);
  await createIndex(db, 'wit_user_project', ['project_id']);

  await createTable(db, 'wit_device_type', true, [
    c('name', 'text', { notNull: true }),
    c('code', 'text', { notNull: true }),
    c('monitor_type_id', 'id'),
    c('icon', 'text'),
    c('sort', 'int'),
    c('remark', 'text'),
  ]);
  await createTable(db, 'wit_device_attribute', true, [
    c('device_type_id', 'id', { notNull: true }),
    c('project_type', 'int'),
    c('name', 'text', { notNull: true }),
    c('attr_key', 'text', { notNull: true }),
    c('unit', 'text'),
    c('data_type', 'text', { notNull: true, default: 'float' }),
    c('sort', 'int'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_device_attribute', ['device_type_id']);
  await createTable(db, 'wit_device_model', true, [
    c('name', 'text', { notNull: true }),
    c('code', 'text', { notNull: true }),
    c('device_type_id', 'id'),
    c('model_kind', 'int', { notNull: true, default: 1 }),
    c('manufacturer', 'text'),
    c('protocol_id', 'id'),
    c('connection_type', 'int', { notNull: true, default: 1 }),
    c('channels', 'int', { notNull: true, default: 1 }),
    c('sampling_interval', 'int'),
    c('formula', 'longtext'),
    c('remark', 'text'),
  ]);
  await createTable(db, 'wit_protocol', true, [
    c('name', 'text', { notNull: true }),
    c('code', 'text', { notNull: true }),
    c('protocol_type', 'int', { notNull: true, default: 1 }),
    c('version', 'text'),
    c('remark', 'text'),
  ]);
  await createTable(db, 'wit_model_agreement', true, [
    c('model_id', 'id', { notNull: true }),
    c('protocol_id', 'id', { notNull: true }),
    c('is_default', 'int', { notNull: true, default: 0 }),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_model_agreement', ['model_id']);
  await createTable(db, 'wit_protocol_point', true, [
    c('protocol_id', 'id', { notNull: true }),
    c('point_key', 'text', { notNull: true }),
    c('name', 'text', { notNull: true }),
    c('unit', 'text'),
    c('data_type', 'text', { notNull: true, default: 'float' }),
    c('read_write', 'int', { notNull: true, default: 1 }),
    c('sort', 'int'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_protocol_point', ['protocol_id']);
  await createTable(db, 'wit_protocol_modbus', true, [
    c('protocol_id', 'id', { notNull: true }),
    c('point_key', 'text', { notNull: true }),
    c('name', 'text', { notNull: true }),
    c('slave_id', 'int', { notNull: true, default: 1 }),
    c('function_code', 'int', { notNull: true }),
    c('register', 'int', { notNull: true }),
    c('quantity', 'int', { notNull: true, default: 1 }),
    c('data_type', 'text', { notNull: true }),
    c('byte_order', 'text', { notNull: true, default: 'ABCD' }),
    c('scale', 'double', { notNull: true, default: 1 }),
    c('offset', 'double', { notNull: true, default: 0 }),
    c('unit', 'text'),
    c('read_write', 'int', { notNull: true, default: 1 }),
    c('sort', 'int'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_protocol_modbus', ['protocol_id']);
  await createTable(db, 'wit_temperature_coefficient', true, [
    c('model_id', 'id', { notNull: true }),
    c('channel', 'int', { notNull: true }),
    c('coefficient', 'double', { notNull: true }),
    c('reference_temperature', 'double', { notNull: true, default: 20 }),
    c('unit', 'text'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_temperature_coefficient', ['model_id', 'channel']);

  await createTable(db, 'wit_gateway', true, [
    c('code', 'text', { notNull: true }),
    c('name', 'text', { notNull: true }),
    c('parent_id', 'id', { notNull: true, default: '0' }),
    c('model_id', 'id'),
    c('project_id', 'id'),
    c('install_position', 'text'),
    c('longitude', 'double'),
    c('latitude', 'double'),
    c('ip', 'text'),
    c('firmware', 'text'),
    c('online', 'int', { notNull: true, default: 0 }),
    c('last_seen', 'datetime'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_gateway', ['code']);
  await createIndex(db, 'wit_gateway', ['project_id']);
  await createTable(db, 'wit_gateway_state', true, [
    c('gateway_id', 'id', { notNull: true }),
    c('gateway_code', 'text', { notNull: true }),
    c('project_id', 'id'),
    c('online', 'int', { notNull: true }),
    c('reason', 'text'),
    c('client_ip', 'text'),
    c('state_time', 'datetime', { notNull: true }),
  ]);
  await createIndex(db, 'wit_gateway_state', ['gateway_id', 'state_time']);

  await createTable(db, 'wit_device_group', true, [
    c('project_id', 'id', { notNull: true }),
    c('parent_id', 'id', { notNull: true, default: '0' }),
    c('name', 'text', { notNull: true }),
    c('level', 'int', { notNull: true, default: 1 }),
    c('sort', 'int'),
  ]);
  await createIndex(db, 'wit_device_group', ['project_id', 'parent_id']);
  await createTable(db, 'wit_device', true, [
    c('code', 'text', { notNull: true }),
    c('name', 'text', { notNull: true }),
    c('model_id', 'id'),
    c('device_type_id', 'id'),
    c('project_id', 'id'),
    c('gateway_id', 'id'),
    c('group_id', 'id'),
    c('address', 'text'),
    c('install_position', 'text'),
    c('longitude', 'double'),
    c('latitude', 'double'),
    c('elevation', 'double'),
    c('install_time', 'datetime'),
    c('sampling_interval', 'int'),
    c('initial_values', 'longtext'),
    c('online', 'int', { notNull: true, default: 0 }),
    c('last_seen', 'datetime'),
    c('last_values', 'longtext'),
    c('sort', 'int'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_device', ['code']);
  await createIndex(db, 'wit_device', ['project_id', 'group_id']);
  await createIndex(db, 'wit_device', ['gateway_id']);
  await createIndex(db, 'wit_device', ['model_id']);
  await createTable(db, 'wit_device_point', true, [
    c('device_id', 'id', { notNull: true }),
    c('point_key', 'text', { notNull: true }),
    c('name', 'text', { notNull: true }),
    c('unit', 'text'),
    c('factors_item_id', 'id'),
    c('precision', 'int'),
    c('channel', 'int'),
    c('sort', 'int'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_device_point', ['device_id', 'point_key']);
  await createTable(db, 'wit_device_point_att', true, [
    c('point_id', 'id', { notNull: true }),
    c('attr_key', 'text', { notNull: true }),
    c('attr_value', 'text', { notNull: true }),
    c('unit', 'text'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_device_point_att', ['point_id']);

  await createTable(db, 'wit_monitor_type', true, [
    c('name', 'text', { notNull: true }),
    c('code', 'text', { notNull: true }),
    c('sort', 'int'),
    c('remark', 'text'),
  ]);
  await createTable(db, 'wit_monitor_factors', true, [
    c('monitor_type_id', 'id'),
    c('name', 'text', { notNull: true }),
    c('code', 'text', { notNull: true }),
    c('unit', 'text'),
    c('precision', 'int'),
    c('sort', 'int'),
    c('remark', 'text'),
  ]);
  await createTable(db, 'wit_monitor_factors_item', true, [
    c('factors_id', 'id', { notNull: true }),
    c('name', 'text', { notNull: true }),
    c('code', 'text', { notNull: true }),
    c('item_kind', 'int', { notNull: true, default: 1 }),
    c('unit', 'text'),
    c('precision', 'int'),
    c('sort', 'int'),
  ]);
  await createIndex(db, 'wit_monitor_factors_item', ['factors_id']);
  await createTable(db, 'wit_monitor_point', true, [
    c('project_id', 'id', { notNull: true }),
    c('factors_id', 'id'),
    c('name', 'text', { notNull: true }),
    c('code', 'text', { notNull: true }),
    c('position', 'text'),
    c('longitude', 'double'),
    c('latitude', 'double'),
    c('elevation', 'double'),
    c('initial_value', 'double'),
    c('initial_time', 'datetime'),
    c('sort', 'int'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_monitor_point', ['project_id']);
  await createTable(db, 'wit_point_relation_device', true, [
    c('monitor_point_id', 'id', { notNull: true }),
    c('device_id', 'id', { notNull: true }),
    c('point_key', 'text'),
    c('remark', 'text'),
  ]);
  await createIndex(db, 'wit_point_relation_device', ['monitor_point_id']);
  await createIndex(db, 'wit_point_relation_device', ['device_id']);
  await createTable(db, 'wit_monitor_item', true, [
    c('name', 'text', { notNull: true }),
    c('code', 'text', { notNull: true }),
    c('monitor_type_id', 'id'),
    c('factors_id', 'id'),
    c('factors_item_id', 'id'),
    c('sort', 'int'),
    c('remark', 'text'),
  ]);
}
