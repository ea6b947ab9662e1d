/**
 * Queries on tenant-owned tables that do not go through the scoped repository (server/db/repository.ts), per file:
 * the visible exceptions to "one place applies tenant isolation" (docs/authorisation.md "The rows").
 * tests/unit/raw-queries.test.ts counts them in the code and fails when a file holds more (a new one: go through
 * `platform.repo(resource)`, or list it here with its reason) or fewer (shrink the list).
 */

const BACKGROUND = 'runs without a caller (ingestion, alarms, push, presence, pulls): the tenant comes from the device or row it works on';
const IDENTITY = "identity and rights: reads users, roles and grants by id or account, before or beside the caller's scope";
const PLATFORM = 'moves or purges rows across tenants, as the platform administrator or by ownership of projects the caller may purge';

const ENGINE =
  "the workflow engine's steps (server/flow): each query is of the instance a step runs on — its tasks, history and timers — found first through the caller's scope or by the timer scheduler; the tenant is the instance's";
const CORRELATED = 'a subquery tied by id to the row the scoped query chose (a task of the instance, its history): it reads nothing of another tenant';

const UPKEEP = 'upkeep at start, before any caller: rewrites a column of every tenant in place (secrets sealed with the current key)';

export type RawQueryReason = typeof BACKGROUND | typeof IDENTITY | typeof PLATFORM | typeof ENGINE | typeof CORRELATED | typeof UPKEEP;

/** File -> [how many raw queries on tenant tables it holds, why]. */
export const RAW_TENANT_QUERIES: Readonly<Record<string, readonly [number, RawQueryReason]>> = {
  'server/alarms/channels.ts': [2, BACKGROUND],
  // Alarm disposal (docs/alarms.md "Disposal"): the alarm, the tenant's param and its process, the alarm's handling,
  // and the reconciliation at start (ended disposals, unlinked ones, alarms waiting for one).
  'server/alarms/disposal.ts': [13, BACKGROUND],
  'server/alarms/engine.ts': [6, BACKGROUND],
  // The outbox (wit_alarm_delivery, named by a constant) and the people and alarms of its deliveries; its backlog
  // counted for the operator's metrics (server/observe).
  'server/alarms/notifier.ts': [17, BACKGROUND],
  'server/alarms/rules.ts': [6, BACKGROUND],
  'server/auth/display.ts': [2, IDENTITY],
  'server/auth/escalation.ts': [1, IDENTITY],
  'server/auth/rights.ts': [2, IDENTITY],
  'server/auth/sign-in-guard.ts': [7, IDENTITY],
  // Secrets at rest (docs/security.md): each declared secret column read and sealed row by row at start.
  'server/db/seal-secrets.ts': [2, UPKEEP],
  // Who a task goes to: the tenant's users, roles, departments and posts, whoever caused the step.
  'server/flow/directory.ts': [4, IDENTITY],
  'server/flow/service.ts': [8, ENGINE],
  'server/flow/steps.ts': [11, ENGINE],
  // The broker's topic rules of a connected identity's tenant.
  'server/ingest/broker.ts': [1, BACKGROUND],
  // A CONNECT's identity, looked up by its username before any tenant is known; identities still in use after a change.
  'server/ingest/credentials.ts': [2, IDENTITY],
  'server/ingest/directory.ts': [6, BACKGROUND],
  'server/ingest/latest.ts': [2, BACKGROUND],
  'server/ingest/presence.ts': [7, BACKGROUND],
  // The online-rate sampler counts every tenant's devices and online ones every 10 minutes (docs/statistics.md).
  'server/ingest/presence-sampler.ts': [1, BACKGROUND],
  'server/logs.ts': [1, BACKGROUND],
  'server/modules/blade-auth/login.ts': [2, IDENTITY],
  'server/modules/blade-desk/notices.ts': [1, BACKGROUND],
  // Who may see an instance: its tasks and history, correlated to the scoped instance row.
  'server/modules/blade-flow/tasks.ts': [2, CORRELATED],
  // The newest version of a definition's key, correlated to the definition the scoped query chose.
  'server/modules/blade-flow/views.ts': [1, CORRELATED],
  'server/modules/blade-system/access/grants.ts': [1, IDENTITY],
  'server/modules/blade-system/access/menu.ts': [1, IDENTITY],
  'server/modules/blade-system/access/provision.ts': [2, IDENTITY],
  // The tenant purge: link rows found through the tenant's rows, and every tenant table by introspection.
  'server/modules/blade-system/access/purge.ts': [3, PLATFORM],
  'server/modules/blade-system/access/quota.ts': [1, IDENTITY],
  'server/modules/blade-system/access/role.ts': [2, IDENTITY],
  'server/modules/blade-system/access/tenant.ts': [1, PLATFORM],
  'server/modules/blade-system/organisation.ts': [1, IDENTITY],
  'server/modules/blade-user/names.ts': [1, IDENTITY],
  'server/modules/blade-user/register.ts': [1, IDENTITY],
  'server/modules/blade-user/self.ts': [1, IDENTITY],
  'server/modules/blade-user/tenancy.ts': [1, IDENTITY],
  'server/modules/wit-xinde/commands.ts': [4, BACKGROUND],
  'server/modules/wit-xinde/project-move.ts': [4, PLATFORM],
  'server/modules/wit-xinde/project-rows.ts': [5, PLATFORM],
  'server/modules/wit-xinde/strategy-scheduler.ts': [7, BACKGROUND],
  'server/push/bindings.ts': [5, BACKGROUND],
  'server/push/history.ts': [1, BACKGROUND],
  'server/push/sendlog.ts': [2, BACKGROUND],
  'server/realtime/debug.ts': [3, BACKGROUND],
  'server/realtime/screen.ts': [4, BACKGROUND],
  'server/series/purge.ts': [2, PLATFORM],
  'server/series/sampling.ts': [1, BACKGROUND],
  'server/third/puller.ts': [10, BACKGROUND],
};
