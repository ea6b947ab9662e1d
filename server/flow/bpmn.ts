import * as Elements from 'bpmn-elements';
import { BpmnModdle, type ModdleElement, type ParseResult } from 'bpmn-moddle';
import serialize, { type SerializableContext, TypeResolver } from 'moddle-context-serializer';
import { expressionError } from './expressions';

/**
 * Reading a BPMN document into what the engine runs and what the service needs to know of it: its process key and
 * name, its user tasks' assignment, and the names of its elements for the history. A document the engine cannot run
 * is refused with a message that says where: the element id and its line in the XML (docs/workflow.md "Models").
 */

/** How a user task is assigned, as the model writes it (camunda:, flowable: or activiti: attributes). */
export interface UserTaskSpec {
  id: string;
  name: string;
  assignee?: string;
  candidateUsers?: string;
  candidateGroups?: string;
  formKey?: string;
  dueDate?: string;
}

/** A process ready to run: compiled once per definition and kept (server/flow/engine.ts caches it). */
export interface CompiledProcess {
  key: string;
  name: string;
  description: string | null;
  /** The engine's serialised form of the document, given to every engine that runs or resumes an instance. */
  context: SerializableContext;
  /** Every flow element's name (its id when unnamed) and BPMN type, for the history. */
  elements: ReadonlyMap<string, { name: string; type: string }>;
  userTasks: ReadonlyMap<string, UserTaskSpec>;
  /** Boundary events by id, to the task each is attached to (an escalating timer's task gets a due time). */
  boundaries: ReadonlyMap<string, string>;
  /** Sequence flows by id: where each leads from and to (the diagram marks those taken). */
  flows: ReadonlyMap<string, { source: string; target: string }>;
}

/** A refusal of a document, with where it is. */
export class BpmnProblem extends Error {
  constructor(
    readonly problem: string,
    readonly elementId?: string,
    readonly line?: number,
  ) {
    super([line ? `第${line}行` : '', elementId ? `元素 ${elementId}` : '', problem].filter(Boolean).join(', '));
  }
}

/** Elements the engine runs for us. Scripts and service calls are left out on purpose: tenants upload models. */
const SUPPORTED = new Set([
  'bpmn:StartEvent',
  'bpmn:EndEvent',
  'bpmn:UserTask',
  'bpmn:Task',
  'bpmn:ManualTask',
  'bpmn:ExclusiveGateway',
  'bpmn:ParallelGateway',
  'bpmn:InclusiveGateway',
  'bpmn:SequenceFlow',
  'bpmn:BoundaryEvent',
  'bpmn:IntermediateCatchEvent',
  'bpmn:IntermediateThrowEvent',
]);
/** Event definitions allowed, per event type: timers on boundaries and catches; termination at the end. */
const EVENT_DEFINITIONS: Readonly<Record<string, readonly string[]>> = {
  'bpmn:StartEvent': [],
  'bpmn:EndEvent': ['bpmn:TerminateEventDefinition'],
  'bpmn:BoundaryEvent': ['bpmn:TimerEventDefinition'],
  'bpmn:IntermediateCatchEvent': ['bpmn:TimerEventDefinition'],
  'bpmn:IntermediateThrowEvent': [],
};
const EXTENSION_PREFIXES = ['camunda', 'flowable', 'activiti'];

const typeResolver = TypeResolver(Elements);

/** The line of an element's `id="…"` in the document (1-based), when it is found. */
export function lineOf(xml: string, elementId: string | undefined): number | undefined {
  if (!elementId) return undefined;
  const at = xml.search(new RegExp(`\\bid\\s*=\\s*["']${elementId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}["']`));
  return at < 0 ? undefined : xml.slice(0, at).split('\n').length;
}

/** An extension attribute of an element, whatever engine's namespace prefix the model uses. */
function extension(element: ModdleElement, name: string): string | undefined {
  for (const prefix of EXTENSION_PREFIXES) {
    const value = element.$attrs?.[`${prefix}:${name}`];
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  return undefined;
}

const shortType = (type: string) => type.replace(/^bpmn:/, '');
const lowerFirst = (type: string) => type.charAt(0).toLowerCase() + type.slice(1);

/** The BPMN type as BladeX's history names it: `userTask`, `startEvent`, … */
export const historyType = (type: string) => lowerFirst(shortType(type));

/**
 * The line the parser names in a message, as a line of the document: the parser (saxen) counts from 0, and `shift`
 * lines were cut from the document's start.
 */
function parserLine(message: string, shift: number): number | undefined {
  const line = /line:\s*(\d+)/.exec(message)?.[1];
  return line === undefined ? undefined : Number(line) + 1 + shift;
}

/**
 * Parses the document. Whitespace before it is cut (an XML declaration must come first), and the lines cut are added
 * back to the lines the parser names, so they are the document's as its author sees it.
 */
async function parse(xml: string): Promise<{ parsed: ParseResult; shift: number }> {
  const body = xml.trimStart();
  const shift = xml.slice(0, xml.length - body.length).split('\n').length - 1;
  try {
    return { parsed: await new BpmnModdle().fromXML(body), shift };
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    throw new BpmnProblem(`XML 无法解析: ${message.split('\n')[0]}`, undefined, parserLine(message, shift));
  }
}

function executableProcess(definitions: ModdleElement, xml: string): ModdleElement {
  const roots = (definitions.rootElements as ModdleElement[] | undefined) ?? [];
  const processes = roots.filter((root) => root.$type === 'bpmn:Process');
  if (processes.length === 0) throw new BpmnProblem('文件中没有流程 (bpmn:process)');
  const executable = processes.length === 1 ? processes : processes.filter((p) => p.isExecutable === true);
  if (executable.length !== 1) {
    throw new BpmnProblem('一个部署只能有一个可执行流程 (isExecutable="true")', processes[1]?.id, lineOf(xml, processes[1]?.id));
  }
  const process = executable[0];
  if (!process.id || !/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(process.id) || process.id.length > 64) {
    throw new BpmnProblem('流程标识 (process id) 只能由字母、数字、下划线、点和横线组成,且以字母或下划线开头,不超过64个字符', process.id, lineOf(xml, process.id));
  }
  return process;
}

/** Checks one flow element; throws the first problem. */
function checkElement(element: ModdleElement, xml: string, elementIds: ReadonlySet<string>): void {
  const refusal = (problem: string): never => {
    throw new BpmnProblem(problem, element.id, lineOf(xml, element.id));
  };
  if (!SUPPORTED.has(element.$type)) refusal(`不支持的元素类型 ${shortType(element.$type)}`);
  const definitions = (element.eventDefinitions as ModdleElement[] | undefined) ?? [];
  const allowed = EVENT_DEFINITIONS[element.$type];
  for (const definition of definitions) {
    if (!allowed?.includes(definition.$type)) refusal(`${shortType(element.$type)} 不支持 ${shortType(definition.$type)}`);
  }
  if ((element.$type === 'bpmn:BoundaryEvent' || element.$type === 'bpmn:IntermediateCatchEvent') && definitions.length !== 1) {
    refusal('边界事件和中间捕获事件须有一个定时器 (timerEventDefinition)');
  }
  for (const timer of definitions.filter((d) => d.$type === 'bpmn:TimerEventDefinition')) {
    const times = (['timeDuration', 'timeDate', 'timeCycle'] as const).map((k) => (timer[k] as ModdleElement | undefined)?.body as string | undefined).filter((b) => b?.trim());
    if (times.length === 0) refusal('定时器须有 timeDuration、timeDate 或 timeCycle');
    for (const time of times) if (time?.includes('${')) checkExpression(time, refusal);
  }
  if (element.$type === 'bpmn:SequenceFlow') {
    for (const end of ['sourceRef', 'targetRef'] as const) {
      const target = element[end] as ModdleElement | undefined;
      if (!target?.id || !elementIds.has(target.id)) refusal(end === 'sourceRef' ? '连线的起点不存在' : '连线的终点不存在');
    }
    const condition = element.conditionExpression as ModdleElement | undefined;
    if (condition) {
      if (condition.language && !/^(juel|jexl)$/i.test(String(condition.language))) refusal(`不支持脚本条件 (${condition.language}),请写作 \${…} 表达式`);
      checkExpression(String(condition.body ?? ''), refusal);
    }
  }
  if (element.$type === 'bpmn:UserTask') {
    for (const name of ['assignee', 'candidateUsers', 'candidateGroups', 'dueDate']) {
      const value = extension(element, name);
      if (value?.includes('${')) checkExpression(value, refusal);
    }
  }
  if (element.$type === 'bpmn:BoundaryEvent' && !(element.attachedToRef as ModdleElement | undefined)?.id) refusal('边界事件未附着在任务上');
}

function checkExpression(text: string, refusal: (problem: string) => never): void {
  const problem = expressionError(text);
  if (problem) refusal(problem);
}

/** Elements where a path stops until someone or some time moves it on. */
const WAITS = new Set(['bpmn:UserTask', 'bpmn:IntermediateCatchEvent']);

/**
 * An element on a cycle of sequence flows that never waits (gateways and plain tasks only): the engine would run it
 * for ever within one step. Undefined when every cycle passes a user task or a timer.
 */
function loopWithoutWait(flowElements: readonly ModdleElement[]): string | undefined {
  const waits = new Set(flowElements.filter((e) => WAITS.has(e.$type)).map((e) => String(e.id)));
  const next = new Map<string, string[]>();
  for (const flow of flowElements.filter((e) => e.$type === 'bpmn:SequenceFlow')) {
    const [from, to] = [String((flow.sourceRef as ModdleElement).id), String((flow.targetRef as ModdleElement).id)];
    if (waits.has(from) || waits.has(to)) continue;
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string): string | undefined => {
    if (state.get(id) === 'open') return id;
    if (state.get(id) === 'done') return undefined;
    state.set(id, 'open');
    for (const to of next.get(id) ?? []) {
      const found = visit(to);
      if (found) return found;
    }
    state.set(id, 'done');
    return undefined;
  };
  for (const id of next.keys()) {
    const found = visit(id);
    if (found) return found;
  }
  return undefined;
}

/** Reads, checks and compiles a BPMN document; throws BpmnProblem when the engine could not run it. */
export async function compileBpmn(xml: string): Promise<CompiledProcess> {
  if (!xml.trim()) throw new BpmnProblem('流程文件为空');
  const { parsed, shift } = await parse(xml);
  const warning = parsed.warnings[0];
  if (warning) {
    const elementId = warning.element?.id;
    throw new BpmnProblem(warning.message.split('\n')[0], elementId, parserLine(warning.message, shift) ?? lineOf(xml, elementId));
  }
  const process = executableProcess(parsed.rootElement, xml);
  const flowElements = (process.flowElements as ModdleElement[] | undefined) ?? [];
  const ids = new Set(flowElements.map((e) => e.id).filter((id): id is string => Boolean(id)));
  for (const element of flowElements) checkElement(element, xml, ids);
  if (!flowElements.some((e) => e.$type === 'bpmn:StartEvent')) throw new BpmnProblem('流程缺少开始事件', process.id, lineOf(xml, process.id));
  if (!flowElements.some((e) => e.$type === 'bpmn:EndEvent')) throw new BpmnProblem('流程缺少结束事件', process.id, lineOf(xml, process.id));
  for (const element of flowElements) {
    if (element.$type === 'bpmn:SequenceFlow' || element.$type === 'bpmn:BoundaryEvent' || element.$type === 'bpmn:StartEvent') continue;
    const incoming = flowElements.some((f) => f.$type === 'bpmn:SequenceFlow' && (f.targetRef as ModdleElement).id === element.id);
    if (!incoming) throw new BpmnProblem('元素没有进入的连线,永远不会执行', element.id, lineOf(xml, element.id));
  }

  const loop = loopWithoutWait(flowElements);
  if (loop) throw new BpmnProblem('流程中有不经过用户任务或定时器的循环,会无限执行', loop, lineOf(xml, loop));

  let context: SerializableContext;
  try {
    context = serialize(parsed as never, typeResolver);
  } catch (error) {
    throw new BpmnProblem(`引擎无法加载流程: ${(error as Error).message}`, process.id, lineOf(xml, process.id));
  }
  const elements = new Map(flowElements.map((e) => [String(e.id), { name: e.name?.trim() || String(e.id), type: e.$type }]));
  const userTasks = new Map(
    flowElements
      .filter((e) => e.$type === 'bpmn:UserTask')
      .map((e) => {
        const spec: UserTaskSpec = {
          id: String(e.id),
          name: e.name?.trim() || String(e.id),
          assignee: extension(e, 'assignee'),
          candidateUsers: extension(e, 'candidateUsers'),
          candidateGroups: extension(e, 'candidateGroups'),
          formKey: extension(e, 'formKey'),
          dueDate: extension(e, 'dueDate'),
        };
        return [spec.id, spec];
      }),
  );
  const documentation = (process.documentation as ModdleElement[] | undefined)?.[0]?.text;
  const boundaries = new Map(
    flowElements.filter((e) => e.$type === 'bpmn:BoundaryEvent').map((e) => [String(e.id), String((e.attachedToRef as ModdleElement).id)]),
  );
  const flows = new Map(
    flowElements
      .filter((e) => e.$type === 'bpmn:SequenceFlow')
      .map((e) => [String(e.id), { source: String((e.sourceRef as ModdleElement).id), target: String((e.targetRef as ModdleElement).id) }]),
  );
  return {
    key: String(process.id),
    boundaries,
    flows,
    name: process.name?.trim() || String(process.id),
    description: typeof documentation === 'string' && documentation.trim() ? documentation.trim() : null,
    context,
    elements,
    userTasks,
  };
}
