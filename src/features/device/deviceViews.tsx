import { Tag } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { device, gateway, gatewayState } from '../../../resources/iot/device';
import { formatValue } from '../../../resources/readings';
import { type Envelope, http } from '../../api/client';
import { navigate } from '../../app/navigation';
import { crudCalls, type Row, treeOf } from '../../crud/api';
import type { CrudView, RowAction, TreeOption } from '../../crud/types';
import { options } from '../../crud/viewHelpers';
import { PROJECT_SELECT, X } from '../project/projectViews';

/** Screens of the device menu (docs/data-model.md "Devices"): devices, gateways, gateway state history. */

// The debug and history screens' paths (DebugConsole.tsx), repeated so this list does not load the debug chunk.
const DEBUG_PATHS = { device: '/xinde/device/debug', gateway: '/xinde/gateway/debug' } as const;
const HISTORY_PATH = '/xinde/device/history';

// Gateways hang below gateways: picked in their tree, not in the declared flat select.
const GATEWAYS = { type: 'tree', source: `${X}/gateway/tree` } as const;

export const onlineCell = (row: Row) =>
  Number(row.online) === 1 ? (
    <Tag intent="success" minimal className="vg-online"><Trans>在线</Trans></Tag>
  ) : (
    <Tag minimal className="vg-offline"><Trans>离线</Trans></Tag>
  );

/** The latest values in one line: `key=value` pairs, longest lines cut (the debug view shows them in full). */
function lastValuesCell(row: Row) {
  let values: Record<string, unknown> = {};
  try {
    const parsed: unknown = typeof row.lastValues === 'string' && row.lastValues ? JSON.parse(row.lastValues) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) values = parsed as Record<string, unknown>;
  } catch {
    // a malformed value shows as nothing
  }
  const line = Object.entries(values).map(([key, value]) => `${key}=${typeof value === 'number' ? formatValue(value) : String(value)}`).join(' ');
  return <span title={line} className="vg-last-values">{line.length > 60 ? `${line.slice(0, 60)}…` : line}</span>;
}

interface GroupNode {
  id: string;
  title: string;
  children?: GroupNode[];
}

const groupOptions = (nodes: readonly GroupNode[]): TreeOption[] =>
  nodes.map((n) => ({ id: String(n.id), title: String(n.title), children: n.children?.length ? groupOptions(n.children) : undefined }));

const groupsOf = (projectId: string) =>
  http.post<Envelope<GroupNode[]>>(`${X}/device/getDeviceGroup`, { json: { projectId } }).then((r) => groupOptions(r.data ?? []));

/**
 * The device groups to choose from: those of the edited device's project (or of the project picked beside the
 * list); otherwise every project's, their top groups named with the project.
 */
function groupSource(projectId?: string) {
  return async (editing?: Row): Promise<TreeOption[]> => {
    const own = (editing?.projectId as string | undefined) || projectId;
    if (own) return groupsOf(own);
    const projects = await treeOf(PROJECT_SELECT);
    const all = await Promise.all(projects.map(async (p) => (await groupsOf(p.id)).map((g) => ({ ...g, title: `${p.title} / ${g.title}` }))));
    return all.flat();
  };
}

export interface DeviceActions {
  command(row: Row): void;
  initialValues(row: Row, refresh: () => void): void;
}

/** Where a new device starts: the project and group picked in the tree beside the list. */
export interface DevicePlace {
  projectId?: string;
  groupId?: string;
}

/** 设备列表: the sensors, with their state, the debug / history views and commands. */
export function deviceView(place: DevicePlace, actions: DeviceActions): CrudView<typeof device> {
  const rowActions: RowAction[] = [
    { key: 'debug', label: msg`调试`, icon: 'code', permission: 'debug', run: (row) => navigate(`${DEBUG_PATHS.device}?id=${row.id}`) },
    { key: 'chart', label: msg`历史曲线`, icon: 'timeline-line-chart', permission: 'chart', run: (row) => navigate(`${HISTORY_PATH}?id=${row.id}`) },
    { key: 'command', label: msg`下发指令`, icon: 'send-message', permission: 'command', run: (row) => actions.command(row) },
    { key: 'init', label: msg`初始值`, icon: 'properties', permission: 'init', run: (row, context) => actions.initialValues(row, context.refresh) },
  ];
  return {
    resource: device,
    dialogWidth: 860,
    fields: [
      { name: 'code', label: msg`设备编号`, search: true, required: msg`请输入设备编号`, width: 130 },
      { name: 'name', label: msg`设备名称`, search: true, required: msg`请输入设备名称`, width: 160 },
      { name: 'modelId', label: msg`设备型号`, width: 110 },
      { name: 'deviceTypeId', label: msg`设备类型`, width: 110 },
      { name: 'projectId', label: msg`所属项目`, width: 160, initial: place.projectId },
      { name: 'gatewayId', label: msg`所属网关`, widget: GATEWAYS, width: 130 },
      { name: 'groupId', label: msg`设备分组`, widget: { type: 'tree', source: groupSource(place.projectId) }, width: 100, initial: place.groupId },
      { name: 'online', label: msg`在线状态`, widget: options(['1', msg`在线`], ['0', msg`离线`]), search: true, hideInForm: true, width: 80, cell: onlineCell },
      { name: 'lastSeen', label: msg`最后上报`, hideInForm: true, width: 160 },
      { name: 'lastValues', label: msg`最新值`, hideInForm: true, width: 220, sortable: false, cell: lastValuesCell },
      { name: 'address', label: msg`通讯地址`, hideInTable: true },
      { name: 'installPosition', label: msg`安装位置`, hideInTable: true },
      { name: 'longitude', label: msg`经度`, widget: { type: 'number', min: -180, max: 180 }, hideInTable: true },
      { name: 'latitude', label: msg`纬度`, widget: { type: 'number', min: -90, max: 90 }, hideInTable: true },
      { name: 'elevation', label: msg`高程`, widget: { type: 'number' }, hideInTable: true },
      { name: 'installTime', label: msg`安装时间`, widget: { type: 'datetime' }, hideInTable: true },
      { name: 'samplingInterval', label: msg`采样间隔(秒)`, widget: { type: 'number', min: 1 }, hideInTable: true },
      { name: 'sort', label: msg`排序`, widget: { type: 'number', min: 0 }, hideInTable: true },
      { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 2 }, hideInTable: true },
    ],
    rowActions,
  };
}

const gatewayCalls = crudCalls(gateway);

/** 网关管理: a lazy tree (collectors below their gateway), the debug view and commands. */
export function gatewayView(command: (row: Row) => void): CrudView<typeof gateway> {
  return {
    resource: gateway,
    list: { call: 'lazy-list' },
    tree: { children: (row) => gatewayCalls.list({ parentId: row.id }, 'lazy-list').then((page) => page.records) },
    dialogWidth: 800,
    fields: [
      // The lazy tree call takes no filters: the gateway list has no search bar.
      { name: 'code', label: msg`网关编号`, required: msg`请输入网关编号`, width: 160 },
      { name: 'name', label: msg`网关名称`, required: msg`请输入网关名称`, width: 160 },
      { name: 'parentId', label: msg`上级网关`, widget: GATEWAYS, hideInTable: true },
      { name: 'modelId', label: msg`网关型号`, width: 110 },
      { name: 'projectId', label: msg`所属项目`, width: 160 },
      { name: 'online', label: msg`在线状态`, hideInForm: true, width: 80, cell: onlineCell },
      { name: 'lastSeen', label: msg`最后上报`, hideInForm: true, width: 160 },
      { name: 'ip', label: msg`IP地址`, width: 120 },
      { name: 'firmware', label: msg`固件版本`, width: 100 },
      { name: 'installPosition', label: msg`安装位置`, hideInTable: true },
      { name: 'longitude', label: msg`经度`, widget: { type: 'number', min: -180, max: 180 }, hideInTable: true },
      { name: 'latitude', label: msg`纬度`, widget: { type: 'number', min: -90, max: 90 }, hideInTable: true },
      { name: 'remark', label: msg`备注`, widget: { type: 'textarea', rows: 2 }, hideInTable: true },
    ],
    rowActions: [
      { key: 'debug', label: msg`调试`, icon: 'code', permission: 'debug', run: (row) => navigate(`${DEBUG_PATHS.gateway}?id=${row.id}`) },
      { key: 'command', label: msg`下发指令`, icon: 'send-message', permission: 'command', run: (row) => command(row) },
    ],
  };
}

/** 网关状态: the online/offline transitions the broker recorded, read-only. */
export const gatewayStateView: CrudView<typeof gatewayState> = {
  resource: gatewayState,
  actions: { view: false, add: false, edit: false, delete: false },
  fields: [
    { name: 'stateTime', label: msg`时间`, width: 170 },
    { name: 'gatewayCode', label: msg`网关编号`, search: true, width: 150 },
    { name: 'gatewayName', label: msg`网关名称`, width: 160 },
    { name: 'online', label: msg`状态`, widget: options(['1', msg`上线`], ['0', msg`下线`]), search: true, width: 80 },
    { name: 'reason', label: msg`原因`, width: 140 },
    { name: 'clientIp', label: msg`客户端IP`, width: 140 },
  ],
};
