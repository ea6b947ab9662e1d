/**
 * The process pages (spec §2 "Workflow routes", §3 "Flow route"): a definition's or task's category `flow_<dictKey>`
 * names an entry of the dictionary `flow` (routeKey `${code}_${dictKey}`), whose remark is the route (routeValue):
 * category `flow_leave` opens /work/process/leave/form/:processDefinitionId, …/handle/:taskId/:processInstanceId/
 * :businessId and …/detail/:processInstanceId/:businessId. Pure: the router, the guard and the lists share it.
 */

/** An entry of the dictionary `flow` as dict/dictionary answers it. */
export interface FlowRouteEntry {
  code: string;
  dictKey: string;
  dictValue: string;
  /** The route value: the business whose pages open (`leave`). */
  remark: string;
}

export type ProcessPageKind = 'form' | 'handle' | 'detail';

/**
 * The pages of a process whose category names no business of the console's (one an administrator designed and
 * deployed): a form of a title and a remark (process/start-process), the instance itself as its business — its id is
 * the route's business id.
 */
export const GENERAL_ROUTE = 'process';

/**
 * The businesses the console has pages for, by route value: each has a handle and a detail page showing its own
 * panel; those a user starts from a form of the console's also have a form (an alarm's disposal starts by itself).
 */
export const PROCESS_BUSINESSES: Readonly<Record<string, { form: boolean }>> = {
  leave: { form: true },
  alarm: { form: false },
  [GENERAL_ROUTE]: { form: true },
};

export type ProcessRoute =
  | { page: 'form'; business: string; processDefinitionId: string }
  | { page: 'handle'; business: string; taskId: string; processInstanceId: string; businessId: string }
  | { page: 'detail'; business: string; processInstanceId: string; businessId: string };

/** Menus whose holders may open each page (the server answers its data to them): the guard's 403 otherwise. */
export const PROCESS_PAGE_MENUS: Readonly<Record<ProcessPageKind, readonly string[]>> = {
  form: ['/work/start'],
  handle: ['/work/todo', '/work/claim'],
  detail: ['/work/start', '/work/claim', '/work/todo', '/work/send', '/work/done', '/flow/follow'],
};

const SEGMENT = /^[^/?#\s]+$/;

/** The page a path opens, or undefined for any other path (an unknown business, a missing or extra segment). */
export function parseProcessPath(path: string): ProcessRoute | undefined {
  const parts = path.replace(/\/$/, '').split('/');
  if (parts[0] !== '' || parts[1] !== 'work' || parts[2] !== 'process') return undefined;
  const [business, page, ...ids] = parts.slice(3);
  if (!business || !Object.hasOwn(PROCESS_BUSINESSES, business)) return undefined;
  if (!ids.every((id) => SEGMENT.test(id))) return undefined;
  let decoded: string[];
  try {
    decoded = ids.map(decodeURIComponent);
  } catch {
    return undefined;
  }
  if (page === 'form' && ids.length === 1 && PROCESS_BUSINESSES[business].form) return { page, business, processDefinitionId: decoded[0] };
  if (page === 'handle' && ids.length === 3) return { page, business, taskId: decoded[0], processInstanceId: decoded[1], businessId: decoded[2] };
  if (page === 'detail' && ids.length === 2) return { page, business, processInstanceId: decoded[0], businessId: decoded[1] };
  return undefined;
}

/** The route value of a category (`flow_leave` → `leave`), or undefined when the dictionary names no route for it. */
export function routeValueOf(entries: readonly FlowRouteEntry[], category: string | null | undefined): string | undefined {
  if (!category) return undefined;
  const entry = entries.find((e) => `${e.code}_${e.dictKey}` === category);
  const value = entry?.remark.trim();
  return value ? value : undefined;
}

/** The route of a category: its business's when the console has that page, else the general pages. */
function routeOf(entries: readonly FlowRouteEntry[], category: string | null | undefined, page: ProcessPageKind): string {
  const route = routeValueOf(entries, category);
  const known = route !== undefined && Object.hasOwn(PROCESS_BUSINESSES, route);
  if (!known) return GENERAL_ROUTE;
  return page === 'form' && !PROCESS_BUSINESSES[route].form ? '' : route;
}

const seg = (value: string) => encodeURIComponent(value);

/** 发起: the form of a definition's category (none for processes that start by themselves, an alarm's disposal). */
export function formPath(entries: readonly FlowRouteEntry[], definition: { id: string; category: string | null }): string | undefined {
  const route = routeOf(entries, definition.category, 'form');
  return route ? `/work/process/${route}/form/${seg(definition.id)}` : undefined;
}

/**
 * The console form a task's form key (the model's `camunda:formKey`) names: the pages of that business, when the
 * console has them (docs/workflow.md "Forms"); undefined for no key or one it has no form for.
 */
export function formOfKey(formKey: string | null | undefined): string | undefined {
  const key = formKey?.trim();
  return key && Object.hasOwn(PROCESS_BUSINESSES, key) ? key : undefined;
}

/**
 * 办理: a task's handle page — the form its form key names, else its category's, else the general one; a process
 * without a business record is its own, and so is any process on the general form.
 */
export function handlePath(
  entries: readonly FlowRouteEntry[],
  task: { taskId: string; processInstanceId: string; businessId: string | null; category: string | null; formKey?: string | null },
): string | undefined {
  const form = formOfKey(task.formKey);
  const route = form ?? routeOf(entries, task.category, 'handle');
  const businessId = form === GENERAL_ROUTE ? task.processInstanceId : (task.businessId ?? task.processInstanceId);
  return `/work/process/${route}/handle/${seg(task.taskId)}/${seg(task.processInstanceId)}/${seg(businessId)}`;
}

/** 详情: an instance's detail page. */
export function detailPath(
  entries: readonly FlowRouteEntry[],
  instance: { processInstanceId: string; businessId: string | null; category: string | null },
): string | undefined {
  const route = routeOf(entries, instance.category, 'detail');
  const businessId = instance.businessId ?? instance.processInstanceId;
  return `/work/process/${route}/detail/${seg(instance.processInstanceId)}/${seg(businessId)}`;
}

/** Whether a user holding these menu paths may open the page (the guard's answer; undefined: not a process page). */
export function processPageHeld(path: string, leafPaths: ReadonlySet<string>): boolean | undefined {
  const route = parseProcessPath(path);
  if (!route) return undefined;
  return PROCESS_PAGE_MENUS[route.page].some((menu) => leafPaths.has(menu));
}
