import { ApiError } from '../http/envelope';

/**
 * What Vigil needs from a third-party monitoring platform (docs/third-party.md "The adapter"): its projects, the
 * devices and monitor points of a project, and the readings of a device over a time range. One implementation per
 * kind of platform (`platformType`); the rest of the server sees only this interface and plain records, so the
 * binding, sync and pull code does not know how a platform is reached.
 */
export interface ThirdPlatform {
  /** Signs in (or reuses a live token): resolves when the platform accepts the credentials. */
  connect(): Promise<void>;
  projects(): Promise<RemoteProject[]>;
  /** The devices of a remote project; with `points`, each with its channels (one call more per device). */
  devices(projectId: string, points?: boolean): Promise<RemoteDevice[]>;
  monitorPoints(projectId: string): Promise<RemoteMonitorPoint[]>;
  /** Every reading of a device with `from <= ts <= to` (epoch ms), in time order. */
  readings(deviceId: string, from: number, to: number): Promise<RemoteReading[]>;
}

/** How to reach a platform: the fields of a `thirdmonitorparam` row, secrets included. */
export interface ThirdConnection {
  platformType: string;
  baseUrl: string;
  thirdTenantId: string;
  username: string;
  password: string;
  clientId: string;
  clientSecret: string;
  timeoutSeconds: number;
}

export interface RemoteProject {
  id: string;
  name: string;
  code: string | null;
  structureType: number | null;
  regionCode: string | null;
  address: string | null;
  longitude: number | null;
  latitude: number | null;
  projectState: number | null;
  startDate: string | null;
  endDate: string | null;
}

export interface RemoteDevicePoint {
  pointKey: string;
  name: string;
  unit: string | null;
  precision: number | null;
  channel: number | null;
  sort: number | null;
  /** Code of the point's factor item (matched to a local factor item by code). */
  factorsItemCode: string | null;
}

export interface RemoteDevice {
  id: string;
  code: string;
  name: string;
  /** Codes of the device's type and model, matched to the local catalogue by code. */
  deviceTypeCode: string | null;
  modelCode: string | null;
  installPosition: string | null;
  longitude: number | null;
  latitude: number | null;
  elevation: number | null;
  installTime: string | null;
  samplingInterval: number | null;
  points: RemoteDevicePoint[];
}

export interface RemoteMonitorPoint {
  id: string;
  code: string;
  name: string;
  /** Code of the point's factor, matched to a local factor by code. */
  factorsCode: string | null;
  position: string | null;
  longitude: number | null;
  latitude: number | null;
  elevation: number | null;
  initialValue: number | null;
  initialTime: string | null;
  sort: number | null;
  /** The remote devices (or channels of them) bound to the point. */
  devices: Array<{ deviceId: string; pointKey: string | null }>;
}

export interface RemoteReading {
  pointKey: string;
  ts: number;
  /** The platform's engineering value. */
  value: number;
  /** The value as its device sent it (the engineering value when the platform does not say). */
  raw: number;
}

/**
 * Why a remote call failed: a refused sign-in pauses periodic pulls; the others are retried at the next one.
 * `blocked`: the outbound guard refused the address (the platform's own network).
 */
export type ThirdFailure = 'login' | 'unreachable' | 'timeout' | 'remote' | 'blocked';

/** A failure of a remote platform, answered to the caller as a 400 with the message. */
export class ThirdError extends ApiError {
  constructor(
    readonly kind: ThirdFailure,
    message: string,
  ) {
    super(400, message);
    this.name = 'ThirdError';
  }
}
