import { type Envelope, http } from '../../api/client';
import type { Row } from '../../crud/api';

/** The third-party calls the screens make (server/modules/wit-xinde/third.ts, docs/third-party.md). */

const X = 'api/wit-xinde';

/** A remote project as getThirdProject answers it: marked with the local project bound to it. */
export interface RemoteProject {
  id: string;
  name: string;
  code: string | null;
  address: string | null;
  bound: 0 | 1;
  projectId: string | null;
  projectName: string | null;
}

/** A remote device as getThirdDevice answers it: with the local device bound to it. */
export interface RemoteDevice {
  id: string;
  code: string;
  name: string;
  installPosition: string | null;
  bound: 0 | 1;
  deviceId: string | null;
  deviceCode: string | null;
  deviceName: string | null;
}

export interface SyncCounts {
  total: number;
  created: number;
  updated: number;
  unchanged: number;
}

export interface PullResult {
  devices: number;
  readings: number;
  unchanged: number;
  failures: string[];
}

const data = <T>(reply: Promise<Envelope<T>>) => reply.then((r) => r.data);

export const thirdApi = {
  params: () => data(http.get<Envelope<{ records: Row[] }>>(`${X}/thirdmonitorparam/list`, { searchParams: { current: 1, size: 1000 } })).then((page) => page.records),
  remoteProjects: (thirdParamId: string) => data(http.get<Envelope<RemoteProject[]>>(`${X}/thirdmonitorparam/getThirdProject`, { searchParams: { thirdParamId } })),
  localProjects: () => data(http.get<Envelope<Row[]>>(`${X}/project/select`)),
  bindProject: (thirdParamId: string, projectId: string, thirdProjectId: string) =>
    data(http.post<Envelope<Row>>(`${X}/thirdmonitorparam/bingProject`, { json: { thirdParamId, projectId, thirdProjectId } })),
  /** Creates a local project from the remote one and binds it. */
  createProject: (thirdParamId: string, ptProjectId: string, projectName?: string) =>
    data(http.get<Envelope<{ project: Row }>>(`${X}/projectcustomer/syncProject`, { searchParams: { thirdParamId, ptProjectId, ...(projectName ? { projectName } : {}) } })),
  remoteDevices: (projectId: string) => data(http.get<Envelope<RemoteDevice[]>>(`${X}/thirdmonitorproject/getThirdDevice`, { searchParams: { projectId } })),
  /** The project's local devices (deviceTreeList: the project node with its devices as children). */
  localDevices: (projectId: string) =>
    data(http.get<Envelope<Array<{ children?: Row[] }>>>(`${X}/thirdmonitorparam/deviceTreeList`, { searchParams: { projectId } })).then((tree) => tree[0]?.children ?? []),
  /** `deviceId`: a local device id, `new`, or '' to unbind. */
  bindDevices: (projectId: string, devices: Array<{ thirdDeviceId: string; deviceId: string }>) =>
    data(http.post<Envelope<{ bound: number; created: number; unbound: number }>>(`${X}/thirdmonitorproject/bingDevice`, { json: { projectId, devices } })),
  syncDevices: (projectId: string) => data(http.get<Envelope<SyncCounts & { points: SyncCounts }>>(`${X}/devicecustomer/syncDeviceInfo`, { searchParams: { projectId } })),
  syncPoints: (projectId: string) => data(http.get<Envelope<SyncCounts & { relations: number }>>(`${X}/pointcustomer/syncPointInfo`, { searchParams: { projectId } })),
  pull: (body: { thirdParamId?: string; bindingId?: string }) => data(http.post<Envelope<PullResult>>(`${X}/thirdmonitorparam/getThirdData`, { json: body })),
};
