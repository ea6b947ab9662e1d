/**
 * Fixed ids of the reference rows the seed keeps in the platform tenant (000000): the catalogue and the bench
 * project the platform operator tests equipment on. Example bodies of child resources name them, so every example
 * saves on a fresh database (the tenant-isolation suite submits them as the platform administrator).
 */
export const REFERENCE_IDS = {
  monitorType: '100000000000000101',
  factors: '100000000000000102',
  factorsItem: '100000000000000103',
  deviceType: '100000000000000104',
  protocol: '100000000000000105',
  model: '100000000000000106',
  project: '100000000000000107',
  device: '100000000000000108',
  devicePoint: '100000000000000109',
  monitorPoint: '100000000000000110',
  /** A disabled push target (docs/push.md), so bindings and mappings have a target to name. */
  pushTarget: '100000000000000111',
  /** seedId('user:000000:admin'), the platform administrator. */
  adminUser: '383477459231075293',
} as const;
