/**
 * Bodies of the workflow calls (spec §7 "Workflow (/api/blade-flow)", docs/workflow.md), shared by the server and the
 * console. Names follow BladeX's `BladeFlow` where the console of BladeX reads them, so either console runs against
 * either server. Ids are strings; dates `yyyy-MM-dd HH:mm:ss`.
 */

/** A deployed process definition: one version of one process key (start-list, manager/list). */
export interface FlowDefinition {
  /** The process definition id: the console's route `/work/process/leave/form/:processDefinitionId`. */
  id: string;
  tenantId: string;
  /** The BPMN process id; versions of one key are one process. */
  key: string;
  name: string;
  version: number;
  /** `flow_<dictKey>` of the dictionary `flow` (the route the console opens, spec §3 "Flow route"). */
  category: string;
  categoryName: string | null;
  description: string | null;
  /** The deployment that brought this version; one deployment holds one definition. */
  deploymentId: string;
  deploymentTime: string;
  /** The uploaded file's name, or `<modelKey>.bpmn20.xml` for a deployed model. */
  resourceName: string;
  /** Flowable's: 1 active, 2 suspended (no new instances; running ones go on). */
  suspensionState: 1 | 2;
  /** Instances of this version still running. */
  runningCount: number;
  /** The newest version of its key. */
  latest: boolean;
}

/** A row of the task lists: todo, claim (unassigned, the caller a candidate) and done (the caller completed it). */
export interface FlowTask {
  taskId: string;
  taskName: string;
  /** The BPMN element id of the user task. */
  taskDefinitionKey: string;
  /** The user who holds it (null while it waits to be claimed). */
  assignee: string | null;
  assigneeName: string | null;
  /** Who delegated it to the assignee and gets it back once resolved (null when not delegated). */
  owner: string | null;
  ownerName: string | null;
  /** `pending` while a delegate works on it. */
  delegation: 'pending' | null;
  /** Candidates as written: user names, role names and department names, for display. */
  candidates: string | null;
  category: string;
  categoryName: string | null;
  createTime: string;
  claimTime: string | null;
  endTime: string | null;
  /** When a boundary timer escalates it (null when none). */
  dueTime: string | null;
  processInstanceId: string;
  processDefinitionId: string;
  processDefinitionKey: string;
  processDefinitionName: string;
  processDefinitionVersion: number;
  /** What the instance is about, e.g. `张三的请假申请(3天)`. */
  processTitle: string;
  businessTable: string | null;
  businessId: string | null;
  startUser: string | null;
  startUserName: string | null;
  processInstanceStartTime: string;
  processIsFinished: boolean;
  /** todo: the caller's; claim: waiting to be claimed; finished: done. */
  status: 'todo' | 'claim' | 'finished';
  /** Of a finished task: approved (true), rejected (false); null when neither was said. */
  pass: boolean | null;
  comment: string | null;
  /**
   * The model's form key of the user task (`camunda:formKey`): the console's form its handle page opens when one is
   * registered for it (leave, alarm, process), else its category's (docs/workflow.md "Forms").
   */
  formKey: string | null;
}

/** A process instance (send-list: the caller started it; follow/list: the tenant's). */
export interface FlowInstance {
  processInstanceId: string;
  processDefinitionId: string;
  processDefinitionKey: string;
  processDefinitionName: string;
  processDefinitionVersion: number;
  category: string;
  categoryName: string | null;
  processTitle: string;
  businessTable: string | null;
  businessId: string | null;
  startUser: string | null;
  startUserName: string | null;
  startTime: string;
  endTime: string | null;
  /** 1 running, 2 suspended, 3 completed, 4 deleted (with `deleteReason`). */
  state: 1 | 2 | 3 | 4;
  processIsFinished: boolean;
  deleteReason: string | null;
  /** Names of the tasks open now, comma-joined ('' when finished). */
  currentTasks: string;
  /** Who holds them now, comma-joined (candidates when unclaimed). */
  currentAssignees: string;
  status: 'finished' | 'unfinished';
}

/** One instance with its variables (process/instance): what a process without a business record is about. */
export interface FlowInstanceDetail extends FlowInstance {
  variables: Record<string, unknown>;
}

/** One step of an instance's history (process/history-flow-list): every activity entered, oldest first. */
export interface FlowHistoryStep {
  historyActivityId: string;
  historyActivityName: string;
  /** The BPMN type without prefix: startEvent, userTask, exclusiveGateway, boundaryEvent, endEvent… */
  historyActivityType: string;
  taskId: string | null;
  assignee: string | null;
  assigneeName: string | null;
  createTime: string;
  endTime: string | null;
  /** Milliseconds from start to end (null while open). */
  durationMs: number | null;
  /** The duration in words, `1天2小时3分` (BladeX's historyActivityDurationTime). */
  historyActivityDurationTime: string;
  comment: string | null;
  pass: boolean | null;
  /** What ended the step other than completion: `timeout` (an escalating timer), `transfer`, `delegate`, `deleted`. */
  reason: string | null;
}

/** What the diagram of an instance shows (process/diagram): the BPMN and which elements ran. */
export interface FlowDiagram {
  xml: string;
  /** Elements finished (activities and the sequence flows taken). */
  finished: string[];
  /** Elements active now (open user tasks, waiting timers). */
  active: string[];
}

/** work/complete-task: approve or reject the task, with a comment and variables for the process. */
export interface CompleteTaskBody {
  taskId: string;
  processInstanceId?: string;
  /** BladeX's `pass`: true approves (default), false rejects; it becomes the process variable `pass`. */
  pass?: boolean;
  /** BladeX's `flag`: `ok` approves; any other value leaves `pass` deciding. */
  flag?: string;
  /** Default 同意 when approved, 驳回 when rejected. */
  comment?: string;
  /** Process variables to set (plain JSON values; names are identifiers). */
  variables?: Record<string, unknown>;
}

/** work/transfer-task (the task changes hands for good) and work/delegate-task (it comes back once resolved). */
export interface HandOverBody {
  taskId: string;
  userId: string;
  comment?: string;
}

/** The leave request (blade-desk/process/leave), the spec's built-in example process. */
export interface LeaveForm {
  processDefinitionId: string;
  startTime: string;
  endTime: string;
  reason: string;
  /** The approver chosen on the form; when empty the applicant's department head is a candidate. */
  taskUser?: string | null;
}

/** leave/detail: the request with its process. */
export interface LeaveDetail extends LeaveForm {
  id: string;
  processInstanceId: string;
  applyTime: string;
  /** Whole days between start and end, rounded up (the process variable `days`). */
  days: number;
  createUser: string;
  createUserName: string | null;
  taskUserName: string | null;
  /** The instance as the lists show it. */
  process: FlowInstance;
}

/** A colleague to hand a task to or to name as approver (work/users): the tenant's enabled users. */
export interface FlowUser {
  id: string;
  account: string;
  realName: string | null;
  deptName: string | null;
}

/** Error messages the console shows as they come; listed so the task machine can tell them apart. */
export const FLOW_MESSAGES = {
  claimedByOther: '任务已被他人签收',
  notYours: '该任务不属于当前用户',
  alreadyDone: '任务已办结',
  taskMissing: '任务不存在或无权操作',
  /** A repeat of a completion that said the other thing: what stands is said, nothing changes. */
  alreadyApproved: '任务已同意,不能再驳回',
  alreadyRejected: '任务已驳回,不能再同意',
  /** Another process's step kept overtaking this one's. */
  conflict: '流程已被他人处理,请刷新后重试',
} as const;
