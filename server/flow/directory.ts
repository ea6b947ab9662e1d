import type { Db } from '../db/database';
import type { EventBus } from '../events';
import { splitIds } from '../modules/blade-user/tenancy';
import type { UserTaskSpec } from './bpmn';
import { type DirectoryRef, evaluate, expressionBody, isDirectoryRef } from './expressions';
import { PromiseCache } from './promise-cache';

/**
 * Who a user task goes to, resolved from the platform's own users, roles, departments and posts (docs/workflow.md
 * "Assignment"): an assignee, or candidates who may claim it — users, roles and departments, the last two by
 * membership at the time of claiming. A task that names nobody who exists goes to the tenant's administrators, so no
 * task is stuck with nobody to act on it.
 */

export const CANDIDATE = { user: 1, role: 2, dept: 3 } as const;
export type CandidateKind = (typeof CANDIDATE)[keyof typeof CANDIDATE];

export interface Candidate {
  kind: CandidateKind;
  ref: string;
}

export interface Assignment {
  assignee: string | null;
  candidates: Candidate[];
  /** Who it goes to in words: names of the assignee or candidates. */
  display: string;
}

interface Person {
  id: string;
  account: string;
  name: string;
  roles: string[];
  depts: string[];
  posts: string[];
}

/** A tenant's people and organisation, as assignment reads them. */
export interface Organisation {
  users: Map<string, Person>;
  byAccount: Map<string, Person>;
  roles: Map<string, { alias: string; name: string }>;
  depts: Map<string, { parentId: string; name: string }>;
  posts: Map<string, { code: string }>;
}

/** The post whose holders head their department. */
export const HEAD_POST = 'manager';

export class Directory {
  /** A tenant's organisation, read once until a user, role, department or post changes. */
  private readonly cache = new PromiseCache<Organisation>(10_000);

  constructor(
    private readonly db: Db,
    events: EventBus,
  ) {
    events.whenChanged(['blade_user', 'blade_role', 'blade_dept', 'blade_post'], () => this.cache.clear());
  }

  organisation(tenantId: string): Promise<Organisation> {
    return this.cache.get(tenantId, () => this.load(tenantId));
  }

  private async load(tenantId: string): Promise<Organisation> {
    // Identity: who exists in the tenant whose task is being assigned, whoever caused the step (raw-queries.ts).
    const [users, roles, depts, posts] = await Promise.all([
      this.db.selectFrom('blade_user').select(['id', 'account', 'realName', 'name', 'roleId', 'deptId', 'postId']).where('tenantId', '=', tenantId).where('isDeleted', '=', 0).where('status', '=', 1).execute(),
      this.db.selectFrom('blade_role').select(['id', 'roleAlias', 'roleName']).where('tenantId', '=', tenantId).where('isDeleted', '=', 0).execute(),
      this.db.selectFrom('blade_dept').select(['id', 'parentId', 'deptName']).where('tenantId', '=', tenantId).where('isDeleted', '=', 0).execute(),
      this.db.selectFrom('blade_post').select(['id', 'postCode']).where('tenantId', '=', tenantId).where('isDeleted', '=', 0).execute(),
    ]);
    const people = users.map((u) => ({
      id: u.id,
      account: u.account,
      name: u.realName || u.name || u.account,
      roles: splitIds(u.roleId),
      depts: splitIds(u.deptId),
      posts: splitIds(u.postId),
    }));
    return {
      users: new Map(people.map((p) => [p.id, p])),
      byAccount: new Map(people.map((p) => [p.account, p])),
      roles: new Map(roles.map((r) => [r.id, { alias: r.roleAlias, name: r.roleName }])),
      depts: new Map(depts.map((d) => [d.id, { parentId: String(d.parentId ?? '0'), name: d.deptName }])),
      posts: new Map(posts.map((p) => [p.id, { code: p.postCode }])),
    };
  }

  /** Resolves a user task's assignee and candidates against the instance's variables. */
  async assign(tenantId: string, spec: UserTaskSpec, variables: Readonly<Record<string, unknown>>): Promise<Assignment> {
    const org = await this.organisation(tenantId);
    const assignee = values(spec.assignee, variables)
      .flatMap((v) => usersOf(org, v))
      .at(0);
    if (assignee) return { assignee, candidates: [], display: org.users.get(assignee)?.name ?? assignee };

    const candidates = new Map<string, Candidate>();
    const add = (kind: CandidateKind, ref: string) => candidates.set(`${kind}:${ref}`, { kind, ref });
    for (const value of values(spec.candidateUsers, variables)) for (const user of usersOf(org, value)) add(CANDIDATE.user, user);
    for (const value of values(spec.candidateGroups, variables)) for (const candidate of groupOf(org, value)) add(candidate.kind, candidate.ref);
    if (candidates.size === 0) {
      for (const [id, role] of org.roles) if (role.alias === 'administrator') add(CANDIDATE.role, id);
    }
    const list = [...candidates.values()];
    return { assignee: null, candidates: list, display: describe(org, list) };
  }

  /** The users a set of candidates stands for now (who a new task's notice goes to). */
  async usersOf(tenantId: string, candidates: readonly Candidate[]): Promise<string[]> {
    const org = await this.organisation(tenantId);
    const out = new Set<string>();
    for (const person of org.users.values()) {
      const holds = candidates.some(
        (c) => (c.kind === CANDIDATE.user && c.ref === person.id) || (c.kind === CANDIDATE.role && person.roles.includes(c.ref)) || (c.kind === CANDIDATE.dept && person.depts.includes(c.ref)),
      );
      if (holds) out.add(person.id);
    }
    return [...out];
  }

  /** A user's name, or its id when it is gone. */
  async nameOf(tenantId: string, userId: string | null | undefined): Promise<string | null> {
    if (!userId) return null;
    return (await this.organisation(tenantId)).users.get(userId)?.name ?? userId;
  }

  /** Whether a user is a live, enabled user of the tenant. */
  async isUser(tenantId: string, userId: string): Promise<boolean> {
    return (await this.organisation(tenantId)).users.has(userId);
  }
}

/** The values an attribute names: the result of its expression (flattened), or its comma-separated words. */
function values(text: string | undefined, variables: Readonly<Record<string, unknown>>): unknown[] {
  if (!text) return [];
  if (expressionBody(text) === undefined) return text.split(',').map((s) => s.trim()).filter(Boolean);
  let result: unknown;
  try {
    result = evaluate(text, variables);
  } catch {
    return [];
  }
  const flat = Array.isArray(result) ? result.flat() : [result];
  return flat.flatMap((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()) : [v])).filter((v) => v !== undefined && v !== null && v !== '');
}

/** A user named by id, account, BladeX's `taskUser_<id>`, or a directory function. */
function usersOf(org: Organisation, value: unknown): string[] {
  if (isDirectoryRef(value)) return directoryUsers(org, value);
  const text = String(value).replace(/^taskUser_/, '');
  const person = org.users.get(text) ?? org.byAccount.get(text);
  return person ? [person.id] : [];
}

function directoryUsers(org: Organisation, ref: DirectoryRef): string[] {
  switch (ref.directory) {
    case 'deptHead':
      return deptHeads(org, ref.arg);
    case 'deptUsers':
      return [...org.users.values()].filter((p) => p.depts.includes(ref.arg)).map((p) => p.id);
    case 'post':
      return postHolders(org, ref.arg);
    case 'role':
      return [...org.users.values()].filter((p) => p.roles.some((r) => org.roles.get(r)?.alias === ref.arg)).map((p) => p.id);
    case 'dept':
      return [...org.users.values()].filter((p) => p.depts.includes(ref.arg)).map((p) => p.id);
  }
}

function postHolders(org: Organisation, code: string): string[] {
  return [...org.users.values()].filter((p) => p.posts.some((id) => org.posts.get(id)?.code === code)).map((p) => p.id);
}

/**
 * The heads of a user's department: its members holding the post `manager`, other than the user; when it has none
 * (or the user is its head), those of the department above, up to the top.
 */
export function deptHeads(org: Organisation, userId: string): string[] {
  const person = org.users.get(String(userId).replace(/^taskUser_/, '')) ?? org.byAccount.get(String(userId));
  if (!person) return [];
  const heads = new Set(postHolders(org, HEAD_POST));
  const seen = new Set<string>();
  for (const start of person.depts) {
    for (let dept: string | undefined = start; dept && dept !== '0' && !seen.has(dept); dept = org.depts.get(dept)?.parentId) {
      seen.add(dept);
      const found = [...org.users.values()].filter((p) => p.id !== person.id && heads.has(p.id) && p.depts.includes(dept as string)).map((p) => p.id);
      if (found.length) return found;
    }
  }
  return [];
}

/** Candidate groups: `role:<alias>`, `dept:<id>`, `post:<code>`, a bare role alias, or a directory function. */
function groupOf(org: Organisation, value: unknown): Candidate[] {
  if (isDirectoryRef(value)) {
    if (value.directory === 'role') return rolesByAlias(org, value.arg);
    if (value.directory === 'dept') return org.depts.has(value.arg) ? [{ kind: CANDIDATE.dept, ref: value.arg }] : [];
    return directoryUsers(org, value).map((ref) => ({ kind: CANDIDATE.user, ref }));
  }
  const [kind, rest] = String(value).includes(':') ? String(value).split(/:(.*)/s) : ['role', String(value)];
  if (kind === 'role') return rolesByAlias(org, rest);
  if (kind === 'dept') return org.depts.has(rest) ? [{ kind: CANDIDATE.dept, ref: rest }] : [];
  if (kind === 'post') return postHolders(org, rest).map((ref) => ({ kind: CANDIDATE.user, ref }));
  if (kind === 'user') return usersOf(org, rest).map((ref) => ({ kind: CANDIDATE.user, ref }));
  return [];
}

function rolesByAlias(org: Organisation, alias: string): Candidate[] {
  return [...org.roles].filter(([, role]) => role.alias === alias).map(([ref]) => ({ kind: CANDIDATE.role, ref }));
}

function describe(org: Organisation, candidates: readonly Candidate[]): string {
  return candidates
    .map((c) => (c.kind === CANDIDATE.user ? org.users.get(c.ref)?.name : c.kind === CANDIDATE.role ? `角色:${org.roles.get(c.ref)?.name}` : `部门:${org.depts.get(c.ref)?.name}`))
    .filter(Boolean)
    .join(',');
}
