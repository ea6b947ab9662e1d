import type { Db, Row } from '../../db/database';
import { badRequest } from '../../http/envelope';
import { ADMINISTRATOR } from '../../auth/principal';
import { splitIds } from '../blade-user/tenancy';

/** Checks of project/adjustTenant; what a move carries, detaches or keeps is described in project-rows.ts. */

/**
 * Refuses a move that would leave a user of the old tenant limited to projects with none: without assignments a user
 * sees the whole tenant again (docs/data-model.md "Project data scope"), so dropping the last ones would widen
 * their scope. Administrators are never limited and do not count.
 */
export async function assertNoScopeWidened(db: Db, projectIds: string[]): Promise<void> {
  const affected = db.selectFrom('wit_user_project').select('userId').where('projectId', 'in', projectIds).where('isDeleted', '=', 0);
  const links = await db.selectFrom('wit_user_project').select(['userId', 'projectId']).where('userId', 'in', affected).where('isDeleted', '=', 0).execute();
  const moving = new Set(projectIds);
  const kept = new Set(links.filter((l) => !moving.has(l.projectId)).map((l) => l.userId));
  const left = [...new Set(links.map((l) => l.userId))].filter((id) => !kept.has(id));
  if (left.length === 0) return;
  const users = await db.selectFrom('blade_user').select(['id', 'account', 'roleId']).where('id', 'in', left).where('isDeleted', '=', 0).orderBy('account').execute();
  for (const user of users) {
    if (await isAdministrator(db, user)) continue;
    throw badRequest(`用户 ${user.account} 只分配了要迁移的项目,迁移后将能查看原租户的全部项目,请先调整其项目分配`);
  }
}

async function isAdministrator(db: Db, user: Row): Promise<boolean> {
  const roleIds = splitIds(user.roleId);
  if (roleIds.length === 0) return false;
  const admin = await db.selectFrom('blade_role').select('id').where('id', 'in', roleIds).where('roleAlias', '=', ADMINISTRATOR).where('isDeleted', '=', 0).executeTakeFirst();
  return admin !== undefined;
}
