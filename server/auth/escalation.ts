import { MQTT_CLIENT_TYPE } from '../../resources/iot/mqtt';
import type { Db, Row } from '../db/database';
import { forbidden } from '../http/envelope';
import { ADMINISTRATOR, PLATFORM_TENANT, type Principal } from './principal';
import { covers, type Holdings, type RightsService } from './rights';

/**
 * The rules no grant lifts (docs/authorisation.md "No escalation"): nobody hands out a role, menu or scope they do not
 * hold, nobody acts on a user or role with more rights than their own, and only the platform administrator touches
 * the platform tenant's administrators.
 */
export const ESCALATION = {
  user: '无权操作权限高于本人的用户',
  role: '无权分配超出本人权限的角色',
  roleEdit: '无权修改权限高于本人的角色',
  administratorAlias: '只有管理员可以设置超级管理员角色',
  ownAccount: '不能修改本人的角色、部门或状态',
  mqttPrivileged: '只有租户管理员可以创建超级用户或网关身份',
} as const;

const split = (value: unknown): string[] => [...new Set(String(value ?? '').split(',').map((s) => s.trim()).filter(Boolean))];

/** Live roles of a tenant among ids. */
async function liveRoles(db: Db, tenantId: string, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom('blade_role').select('id').where('id', 'in', [...ids]).where('tenantId', '=', tenantId).where('isDeleted', '=', 0).execute();
  return rows.map((r) => r.id);
}

export class EscalationGuard {
  constructor(private readonly platform: { db: Db; rights: RightsService }) {}

  private caller(principal: Principal): Promise<Holdings> {
    return this.platform.rights.ofPrincipal(principal);
  }

  /** What a set of roles of a tenant holds. */
  async rolesHold(tenantId: string, roleIds: readonly string[]): Promise<Holdings> {
    return this.platform.rights.of(tenantId, await liveRoles(this.platform.db, tenantId, roleIds));
  }

  /** The caller may edit, reset, unlock or remove these users only when it covers each of them. */
  async assertCoversUsers(principal: Principal, users: readonly Row[]): Promise<void> {
    const caller = await this.caller(principal);
    for (const user of users) {
      if (!covers(caller, await this.rolesHold(String(user.tenantId), split(user.roleId)))) throw forbidden(ESCALATION.user);
    }
  }

  /** A user may be given these roles only by a caller covering all they hold together. */
  async assertAssignable(principal: Principal, tenantId: string, roleIds: unknown): Promise<void> {
    const ids = split(roleIds);
    if (ids.length === 0) return;
    if (!covers(await this.caller(principal), await this.rolesHold(tenantId, ids))) throw forbidden(ESCALATION.role);
  }

  /** A role may be edited, granted or removed only by a caller covering what it holds. */
  async assertCoversRoles(principal: Principal, roles: readonly Row[]): Promise<void> {
    const caller = await this.caller(principal);
    for (const role of roles) {
      if (!covers(caller, await this.rolesHold(String(role.tenantId), [String(role.id)]))) throw forbidden(ESCALATION.roleEdit);
    }
  }

  /** The administrator alias makes a role its tenant's administrator: only that tenant's administrators give it. */
  async assertAliasAllowed(principal: Principal, tenantId: string, alias: unknown): Promise<void> {
    if (alias !== ADMINISTRATOR) return;
    const caller = await this.caller(principal);
    const allowed = caller.platform || (caller.administrator && principal.tenantId === tenantId && tenantId !== PLATFORM_TENANT);
    if (!allowed) throw forbidden(ESCALATION.administratorAlias);
  }

  /**
   * Scopes granted to a role: a tenant's administrator grants any scope of the menus it may grant; everybody else
   * only scopes it holds itself.
   */
  async assertScopesHeld(principal: Principal, tenantId: string, dataScopeIds: readonly string[], apiScopeIds: readonly string[]): Promise<void> {
    const caller = await this.caller(principal);
    if (caller.platform || (caller.administrator && principal.tenantId === tenantId)) return;
    const missing = dataScopeIds.some((id) => !caller.dataScopes.has(id)) || apiScopeIds.some((id) => !caller.apiScopes.has(id));
    if (missing) throw forbidden(ESCALATION.role);
  }

  /** MQTT superusers reach every topic of their tenant, gateways speak for many devices: administrators only. */
  async assertMqttIdentity(principal: Principal, values: Row, existing: Row | undefined): Promise<void> {
    const merged = { ...existing, ...values };
    const privileged = Number(merged.isSuperuser ?? 0) === 1 || Number(merged.clientType) === MQTT_CLIENT_TYPE.gateway;
    if (!privileged) return;
    const caller = await this.caller(principal);
    if (!caller.administrator && !caller.platform) throw forbidden(ESCALATION.mqttPrivileged);
  }
}
