import { Jexl, type JexlExpression } from 'jexl';

/**
 * The expressions of process models: `${…}` in conditions (`${pass}`, `${!pass}`, `${days > 3 && pass}`), assignees
 * and candidates (`${applyUser}`, `${deptHead(applyUser)}`) and timers (`${dueIn}`). The syntax is Flowable's JUEL as
 * far as models use it (identifiers, literals, `== != > >= < <= && || !`, `? :`, property paths), evaluated by jexl
 * over the process variables only: no script, no method call, nothing of the server reachable. Tenants upload models,
 * so nothing in one runs code.
 */

const WHOLE = /^\s*\$\{([\s\S]+)\}\s*$/;

/** What a directory function names, resolved to users, roles or depts after evaluation (server/flow/assign.ts). */
export interface DirectoryRef {
  directory: 'deptHead' | 'deptUsers' | 'role' | 'dept' | 'post';
  arg: string;
}

export const isDirectoryRef = (value: unknown): value is DirectoryRef =>
  typeof value === 'object' && value !== null && 'directory' in value && 'arg' in value;

const ref =
  (directory: DirectoryRef['directory']) =>
  (arg: unknown): DirectoryRef => ({ directory, arg: String(arg ?? '') });

const jexl = new Jexl();
// JUEL's word operators, as Flowable models write them.
jexl.addBinaryOp('eq', 20, (l, r) => l === r);
jexl.addBinaryOp('ne', 20, (l, r) => l !== r);
/** The department heads of a user's department (holders of post `manager`, else up the tree). */
jexl.addFunction('deptHead', ref('deptHead'));
/** Everyone in a department. */
jexl.addFunction('deptUsers', ref('deptUsers'));
/** Candidates: a role by alias, a department by id, a post by code. */
jexl.addFunction('role', ref('role'));
jexl.addFunction('dept', ref('dept'));
jexl.addFunction('post', ref('post'));

const compiled = new Map<string, JexlExpression>();

function compile(body: string): JexlExpression {
  let expression = compiled.get(body);
  if (!expression) {
    expression = jexl.compile(body);
    if (compiled.size > 5000) compiled.clear();
    compiled.set(body, expression);
  }
  return expression;
}

/** The body of a `${…}` expression, or undefined for plain text. */
export function expressionBody(text: string | undefined | null): string | undefined {
  if (!text) return undefined;
  return WHOLE.exec(text)?.[1]?.trim();
}

/** Why an expression cannot be read (a message for the model's author), or undefined when it can. */
export function expressionError(text: string): string | undefined {
  const body = expressionBody(text);
  if (body === undefined) return `表达式应写作 \${…}: ${text}`;
  try {
    compile(body);
    return undefined;
  } catch (error) {
    return `表达式 ${text} 无法解析: ${(error as Error).message}`;
  }
}

/** Only own, plain values of the variables are visible to an expression. */
function scope(variables: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.assign(Object.create(null), variables);
}

/**
 * Evaluates `${…}` against the variables; plain text is returned as it is. An unknown variable is undefined (a
 * condition on it is false), as in JUEL.
 */
export function evaluate(text: string, variables: Readonly<Record<string, unknown>>): unknown {
  const body = expressionBody(text);
  if (body === undefined) return text;
  return compile(body).evalSync(scope(variables));
}

/** The expression handler of the engine's environment (bpmn-elements' `expressions` option). */
export const engineExpressions = {
  isExpression: (text: unknown): boolean => typeof text === 'string' && WHOLE.test(text),
  hasExpression: (text: unknown): boolean => typeof text === 'string' && text.includes('${'),
  resolveExpression(text: string, context?: { environment?: { variables?: Record<string, unknown> } }): unknown {
    return evaluate(text, context?.environment?.variables ?? {});
  },
};
