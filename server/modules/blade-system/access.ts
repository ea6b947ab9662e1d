import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform';
import { registerClient } from './access/client';
import { registerMenu } from './access/menu';
import { registerRole } from './access/role';
import { registerTenant } from './access/tenant';
import type { TenantPurges } from './access/tenant-purge';
import { registerTenantPackage } from './access/tenant-package';
import { registerTopMenu } from './access/topmenu';

/**
 * Access: menus (global), roles and top menus (tenant) with their grants, tenants, tenant packages and clients
 * (platform). Who may see and grant which menu is decided in access/grants.ts; user creation checks the account
 * quota through access/quota.ts.
 *
 * Decisions where BladeX's contract is silent:
 * - Trees follow BladeX's ForestNodeMerger: `children` only on branches, `hasChildren` on every node, a node whose
 *   parent is not in the list is a root. Select trees are `{id, parentId, title, key, value}` nodes.
 * - The platform administrator uses every live menu (routes, buttons, grant trees) whatever its role was granted.
 *   Everyone else uses its roles' grants, cut to its tenant's package when it has one, so a smaller package takes
 *   effect at once.
 * - Grantable menus: the tenant's package (plus ancestors) for the platform administrator and the tenant's own
 *   administrators; otherwise only what the caller holds itself — nobody can widen their own rights.
 *   Scope ids in a grant that are menu ids (tree parents the console sends along) are dropped.
 * - routes?topMenuId= of a top menu outside the caller's tenant gives an empty tree (as BladeX).
 * - tenant: `tenantId` is never reused, deleted tenants included, until the tenant is purged. `package-detail`,
 *   `package-setting`, `datasource` and `deleteTenantById` accept the tenant's row id or its 6-digit code as
 *   `tenantId`. `setting` takes ids, accountNumber (-1 unlimited) and expireTime ('' clears it). The platform
 *   tenant cannot be removed, changed by `setting` or given an expiry.
 * - tenant recycle bin: `GET tenant/recovery` (current, size, list filters) pages the soft-deleted tenants;
 *   `GET|POST tenant/recovery?ids=` restores them (data true). `GET tenant/deleteTenantById?tenantId=` purges a
 *   tenant that is in the recycle bin: its projects and devices with everything that belongs to them (the series by
 *   device, not by tag: docs/data-model.md "Purging"), every row of every other table with a tenant_id column, the
 *   link rows of its roles, top menus and notices, and the tenant row.
 * - tenant info / getBgUrl are public and answer `{}` for an unknown domain or tenant; info matches the host of
 *   the given domain (or of the Host header), ignoring scheme, path and case.
 * - chectNumber?type=user answers `{accountNumber, used, available}` for the caller's tenant (-1 = unlimited).
 * - tenant-package's form gets its menu tree (menus and buttons) from `GET tenant-package/menu-tree`.
 */
export function registerAccess(app: FastifyInstance, platform: Platform, purges: TenantPurges): void {
  registerMenu(app, platform);
  registerRole(app, platform);
  registerTopMenu(app, platform);
  registerTenant(app, platform, purges);
  registerTenantPackage(app, platform);
  registerClient(app, platform);
}
