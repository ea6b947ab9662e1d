import { type Envelope, http } from '../../api/client';
import type { DebugKind, DebugMessage } from '../../../streams/debug';
import type { HistoryChartData, TimeRange } from '../../../streams/history';

/** The calls of the device debug and history views (docs/live-and-history.md). */

export interface PointState {
  pointKey: string;
  name: string;
  unit: string | null;
  /** Decimal places the value is shown with, when the point declares them. */
  precision: number | null;
  value: number | null;
  raw: number | null;
  time: string | null;
}

export interface DeviceState {
  id: string;
  code: string;
  name: string;
  online: boolean;
  lastSeen: string | null;
  points: PointState[];
}

export interface WebsocketInfo {
  url: string;
  path: string;
  namespace: string;
  transports: string[];
}

export interface DebugSnapshot {
  /** The device, or the gateway (without points). */
  target: { id: string; code: string; name: string; online: boolean; lastSeen: string | null };
  devices: DeviceState[];
  messages: DebugMessage[];
  websocket: WebsocketInfo;
  /** Server time when the snapshot was taken: the live stream replays from here. */
  serverTime: number;
}

const X = 'api/wit-xinde';

export async function debugSnapshot(kind: DebugKind, id: string): Promise<DebugSnapshot> {
  if (kind === 'device') {
    const { data } = await http.get<Envelope<{ device: DeviceState; messages: DebugMessage[]; websocket: WebsocketInfo; serverTime: number }>>(`${X}/device/getDeviceDebug`, { searchParams: { deviceId: id } });
    return { target: data.device, devices: [data.device], messages: data.messages, websocket: data.websocket, serverTime: data.serverTime };
  }
  const { data } = await http.get<Envelope<{ gateway: DebugSnapshot['target']; devices: DeviceState[]; messages: DebugMessage[]; websocket: WebsocketInfo; serverTime: number }>>(`${X}/gateway/getGatewayDebug`, { searchParams: { gatewayId: id } });
  return { target: data.gateway, devices: data.devices, messages: data.messages, websocket: data.websocket, serverTime: data.serverTime };
}

export interface Choice {
  id: string;
  code: string;
  name: string;
}

/** Devices or gateways the caller may open (for the view's own picker). */
export async function choices(kind: DebugKind): Promise<Choice[]> {
  const { data } = await http.get<Envelope<{ records: Choice[] }>>(`${X}/${kind}/list`, { searchParams: { current: 1, size: 500, ascs: 'code' } });
  return data.records.map((r) => ({ id: String(r.id), code: String(r.code), name: String(r.name) }));
}

export interface LogKey {
  pointKey: string;
  name: string;
  unit: string | null;
  label: string;
}

export const logKeys = (deviceId: string) => http.get<Envelope<LogKey[]>>(`${X}/devicelog/getDeviceLogDict`, { searchParams: { deviceId } }).then((r) => r.data);

export const historyChart = (deviceId: string, pointKeys: readonly string[], range: TimeRange, width: number) =>
  http
    .get<Envelope<HistoryChartData & { code: string; name: string }>>(`${X}/devicelog/getHistoryEchartsData`, {
      searchParams: { deviceId, pointKey: pointKeys.join(','), startTime: range.start, endTime: range.end, width: Math.round(width) },
    })
    .then((r) => r.data);
