import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseSync } from 'vite';

/**
 * Finds the Chinese messages the server may write in an envelope, by reading its source (the completeness test of
 * resources/messages-en.ts). A message is a Chinese literal in a place that makes it one:
 * - an argument of a refusal, an error or a zod check (MESSAGE_CALLS);
 * - the value of a message-like key (MESSAGE_KEYS) or of any key of a `…MESSAGES`/`ESCALATION` constant;
 * - what a `…Problem`/`…Error`/`…Message` function returns (validators answer with their message);
 * - an element of an array in server/ (the `[field, message]` tables of the modules).
 * Seed data, migrations, tests, log lines and comments are not messages and are never looked at.
 */

const HAN = /[\u4e00-\u9fff]/;

const MESSAGE_CALLS = new Set([
  // Refusals and the errors that become them (server/http/envelope.ts, blade-auth/login.ts).
  'badRequest',
  'invalidParam',
  'forbidden',
  'unauthorized',
  'notFound',
  'ApiError',
  'failure',
  'refusal',
  'LoginError',
  // Errors whose text a refusal carries: the third-party platform (sync), the model formula (recalculation).
  'ThirdError',
  'FormulaError',
  // The workflow's refusals of a model or a step (server/flow).
  'BpmnProblem',
  'FlowRunError',
  'StepConflict',
  // zod checks and the field builders of resources/fields.ts and resources/*.ts.
  'required',
  'id',
  'code',
  'refine',
  'superRefine',
  'min',
  'max',
  'length',
  'regex',
  'int',
  'finite',
  'email',
  'url',
  'choices',
  'range',
  'seconds',
  'codeChars',
  // The problems of a row, joined into a refusal (the point sheet's upload).
  'problems.push',
  // Module helpers that refuse with the message they are given (server/modules/**).
  'visible',
  'assertNoCycle',
  'assertNotHeld',
  'unusedBeforeRemove',
  'referencing',
]);

const MESSAGE_KEYS = new Set(['message', 'msg', 'error', 'missing', 'inUse', 'error_description']);
/** Constants that hold messages: `QUOTA_MESSAGE`, `ROLE_MESSAGES`, `ESCALATION`, `refusedMessage = (host) => …`. */
const MESSAGE_CONSTANT = /(MESSAGES?|ESCALATION|Problem|Message)$/;
/** Functions that answer with a message: `passwordPolicyError`, `ruleProblem`, `resultMessage`. */
const MESSAGE_FUNCTION = /(Problem|Error|Message)$/;
/** Expressions that choose or wrap a message without changing what it is: `a ? '…' : '…'`, `x ?? '…'`. */
const PASS_THROUGH = new Set(['ConditionalExpression', 'LogicalExpression', 'ParenthesizedExpression', 'TSAsExpression', 'TSSatisfiesExpression']);
const SKIPPED_DIRS = new Set(['seed', 'migrations', 'node_modules']);

export interface FoundMessage {
  file: string;
  line: number;
  /** The literal's text: one part, or a template literal's parts around its `${…}`. */
  parts: string[];
}

// oxc's ESTree: only what this walk reads.
interface Node {
  type: string;
  start: number;
  end: number;
  [key: string]: unknown;
}

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && typeof (value as Node).type === 'string';

function partsOf(node: Node): string[] | undefined {
  if (node.type === 'Literal' && typeof node.value === 'string') return [node.value];
  if (node.type === 'TemplateLiteral') return (node.quasis as { value: { cooked: string } }[]).map((q) => q.value.cooked);
  return undefined;
}

const nameOf = (node: unknown): string => (isNode(node) && typeof node.name === 'string' ? node.name : '');

/** The last name of a callee: `z.string().min` -> min, `new ApiError` -> ApiError; `problems.push` as a whole. */
function calleeName(node: Node): string {
  const callee = node.callee as Node;
  if (callee.type !== 'MemberExpression') return nameOf(callee);
  const name = nameOf(callee.property);
  const object = callee.object as Node;
  const owner = object.type === 'MemberExpression' ? nameOf(object.property) : nameOf(object);
  return owner === 'problems' && name === 'push' ? 'problems.push' : name;
}

function keyName(node: Node): string | undefined {
  const key = node.key as Node;
  return (key.name ?? key.value) as string | undefined;
}

/** Whether the literal at the end of `path` (its ancestors, nearest last) sits in a message place. */
function inMessagePlace(path: readonly Node[], inServer: boolean): boolean {
  let at = path.length - 1;
  while (at > 0 && PASS_THROUGH.has(path[at].type)) at--;
  const parent = path[at];
  if ((parent.type === 'CallExpression' || parent.type === 'NewExpression') && MESSAGE_CALLS.has(calleeName(parent))) return true;
  if (parent.type === 'Property' && MESSAGE_KEYS.has(keyName(parent) ?? '')) return true;
  // A default message: `(message = '…') => …`.
  if (parent.type === 'AssignmentPattern' && MESSAGE_KEYS.has(nameOf(parent.left))) return true;
  if (parent.type === 'ArrayExpression' && inServer) return true;
  for (let i = at; i >= 0; i--) {
    const node = path[i];
    if (node.type === 'VariableDeclarator' && MESSAGE_CONSTANT.test(nameOf(node.id))) return true;
    if (node.type === 'FunctionDeclaration' && MESSAGE_FUNCTION.test(nameOf(node.id))) {
      return path.slice(i).some((n) => n.type === 'ReturnStatement');
    }
    // Into a call's argument: a literal further down belongs to that call (a log line, a query), not to an outer place.
    if (node.type === 'CallExpression' && i < at) return false;
  }
  return false;
}

function messagesIn(file: string, code: string, inServer: boolean): FoundMessage[] {
  const found: FoundMessage[] = [];
  const lineOf = (offset: number) => code.slice(0, offset).split('\n').length;
  const visit = (node: Node, path: Node[]) => {
    const parts = partsOf(node);
    if (parts !== undefined) {
      if (parts.some((part) => HAN.test(part)) && inMessagePlace(path, inServer)) found.push({ file, line: lineOf(node.start), parts });
      return;
    }
    path.push(node);
    for (const [key, value] of Object.entries(node)) {
      if (key === 'type') continue;
      for (const child of Array.isArray(value) ? value : [value]) if (isNode(child)) visit(child, path);
    }
    path.pop();
  };
  visit(parseSync(file, code, { lang: 'ts' }).program as unknown as Node, []);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_DIRS.has(entry.name) ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every message of server/ and resources/ under `root`. */
export function serverMessages(root: string): FoundMessage[] {
  return ['server', 'resources'].flatMap((top) =>
    sourceFiles(join(root, top)).flatMap((path) => messagesIn(relative(root, path), readFileSync(path, 'utf8'), top === 'server')),
  );
}
