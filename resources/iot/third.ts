import { z } from 'zod';
import { defineResource, type Reference, type Resource } from '../define';
import { device } from './device';
import { monitorPoint } from './monitoring';
import { project } from './project';
import { datetime, id, int, required, text } from '../fields';

/** Kinds of remote platform an adapter exists for (server/third/). */
export const THIRD_PLATFORM = { bladex: 'bladex' } as const;

/** How the last pull of a connection went; `refused` pauses the periodic pull until the connection is edited. */
export const PULL_STATE = { never: 0, ok: 1, failed: 2, refused: 3 } as const;

/** Fields only the server writes (the pull's outcome); a submit cannot set them. */
export const PULL_OUTCOME_FIELDS = ['lastPullTime', 'lastPullState', 'lastPullMessage'] as const;

/** The root address of a remote platform: http(s), a host, an optional path; no credentials, query or fragment. */
const baseUrl = () =>
  required('请输入平台地址', 500).refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, '平台地址应为 http(s)://主机[:端口][/路径]');

const codeChars = (max: number, message: string) => z.string().trim().max(max, `长度不能超过${max}个字符`).regex(/^[A-Za-z0-9_.:-]*$/, message);

/**
 * A connection to a third-party monitoring platform (第三方参数): where it is, how to sign in, how often to pull.
 * The password and the client secret are write-only; an edit that leaves them blank keeps the stored ones.
 */
export const thirdMonitorParam = defineResource({
  service: 'wit-xinde',
  name: 'thirdmonitorparam',
  menu: 'third_param',
  table: 'wit_third_param',
  tenancy: 'tenant',
  fields: z.object({
    name: required('请输入平台名称', 64),
    platformType: z.enum([THIRD_PLATFORM.bladex], { error: '不支持的平台类型' }).optional(),
    baseUrl: baseUrl(),
    /** The tenant to sign in to on the remote platform (BladeX Tenant-Id). */
    thirdTenantId: codeChars(32, '租户编号只能包含字母、数字和 _ . : -').nullish(),
    username: required('请输入登录账号', 64),
    password: text(128).nullish(),
    clientId: codeChars(64, '客户端编号只能包含字母、数字和 _ . : -').nullish(),
    clientSecret: text(128).nullish(),
    /** Put before remote codes of devices and projects created here, when the remote codes are taken locally. */
    codePrefix: codeChars(16, '编号前缀只能包含字母、数字和 _ . : -').nullish(),
    /** Seconds between periodic pulls; 0 pulls only on demand. */
    intervalSeconds: int()
      .min(0, '拉取间隔不能为负')
      .max(86_400, '拉取间隔不能超过1天')
      .refine((v) => v === 0 || v >= 5, '拉取间隔至少5秒(0为手动拉取)')
      .optional(),
    timeoutSeconds: int().min(1, '超时至少1秒').max(120, '超时不能超过120秒').optional(),
    enabled: int().min(0).max(1).optional(),
    lastPullTime: datetime().nullish(),
    lastPullState: int().nullish(),
    lastPullMessage: text(2000).nullish(),
    remark: text().nullish(),
  }),
  hidden: ['password', 'clientSecret'],
  secrets: ['password', 'clientSecret'],
  unique: [{ fields: ['name'], message: '平台名称已存在' }],
  inUse: '请先解除该平台的项目绑定',
  example: {
    name: '省级桥梁监测平台',
    platformType: 'bladex',
    baseUrl: 'https://monitor.example.com',
    thirdTenantId: '000000',
    username: 'vigil-sync',
    password: 'Remote#Pass01',
    clientId: 'saber',
    clientSecret: 'saber_secret',
    intervalSeconds: 0,
    enabled: 0,
  },
});

/** What every binding row names: the connection, our project, the remote project, and when it was last synced. */
const boundTo = { thirdParamId: id(), projectId: id(), thirdProjectId: text(64), syncTime: datetime().nullish() };

/**
 * A binding table: written by the calls (read-only through the generic routes), scoped by its project. Only project
 * bindings keep a connection from removal (`holds`); device and point bindings go with their project binding.
 */
const binding = <F extends z.ZodRawShape, T extends string>(name: string, table: T, fields: F, holds: boolean, local: Readonly<Record<string, Reference>> = {}) =>
  // Declared as a plain shape with plain names (references keyed by a generic shape's fields do not type-check), then
  // given back its shape, so its rows are typed (resources/rows.ts).
  defineResource<z.ZodRawShape, string, T, 'tenant'>({
    service: 'wit-xinde',
    name,
    menu: 'third_project',
    table,
    tenancy: 'tenant',
    readOnly: true,
    fields: z.object({ ...boundTo, ...fields }),
    projectField: 'projectId',
    orderBy: [{ field: 'createTime', desc: true }],
    references: {
      thirdParamId: { to: () => thirdMonitorParam, missing: '第三方平台不存在或无权操作', as: 'thirdParamName', holds },
      projectId: { to: () => project, missing: '项目不存在或无权操作', as: 'projectName' },
      ...local,
    },
  }) as Resource<typeof boundTo & F, string, T, 'tenant'>;

/**
 * A local project bound to a project of a remote platform (第三方项目). Written by `bingProject` and
 * `projectcustomer/syncProject`; `remove` unbinds it together with its device and monitor-point bindings.
 */
export const thirdMonitorProject = binding('thirdmonitorproject', 'wit_third_project', {
  thirdProjectName: text(128).nullish(),
  thirdProjectCode: text(64).nullish(),
  lastPullTime: datetime().nullish(),
  lastPullCount: int().nullish(),
  remark: text().nullish(),
}, true);

/**
 * A local device bound to a device of a remote platform (设备绑定): where its pulled readings go. `pulledTs` is how far
 * its readings have been pulled (epoch ms). Written by `bingDevice` and `syncDeviceInfo`.
 */
export const deviceCustomer = binding('devicecustomer', 'wit_third_device', {
  deviceId: id(),
  thirdDeviceId: text(64),
  thirdDeviceCode: text(64).nullish(),
  thirdDeviceName: text(128).nullish(),
  pulledTs: int().nullish(),
  lastPullTime: datetime().nullish(),
}, false, { deviceId: { to: () => device, missing: '设备不存在', as: 'deviceName' } });

/** A local monitor point bound to a monitor point of a remote platform (测点绑定). Written by `syncPointInfo`. */
export const pointCustomer = binding('pointcustomer', 'wit_third_point', {
  monitorPointId: id(),
  thirdPointId: text(64),
  thirdPointCode: text(64).nullish(),
  thirdPointName: text(128).nullish(),
}, false, { monitorPointId: { to: () => monitorPoint, missing: '监测点不存在', as: 'monitorPointName' } });
