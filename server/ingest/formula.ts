/**
 * Engineering formulas of device models (`devicemodel.formula`), e.g. `0.0035 * (x^2 - x0^2)` for a vibrating-wire
 * strain gauge. A tiny arithmetic language parsed once into a closure: numbers, the variables of FormulaScope,
 * + - * / ^ (right-associative), unary minus, parentheses and a few math functions. Never `eval`.
 */
export interface FormulaScope {
  /** the raw value */
  x: number;
  /** the channel's initial value (0 when none) */
  x0: number;
  /** the device's temperature (NaN when unknown) */
  T: number;
}

export type Formula = (scope: FormulaScope) => number;

const FUNCTIONS: Record<string, (...args: number[]) => number> = {
  abs: Math.abs, sqrt: Math.sqrt, exp: Math.exp, ln: Math.log, log10: Math.log10, sin: Math.sin, cos: Math.cos,
  tan: Math.tan, asin: Math.asin, acos: Math.acos, atan: Math.atan, atan2: Math.atan2, min: Math.min, max: Math.max,
  pow: Math.pow, round: Math.round, floor: Math.floor, ceil: Math.ceil,
};
const VARIABLES = new Set<keyof FormulaScope>(['x', 'x0', 'T']);

export class FormulaError extends Error {}

type Token = { kind: 'num'; value: number } | { kind: 'id'; name: string } | { kind: 'op'; op: string };

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|(\*\*|[-+*/^(),]))/y;
  let index = 0;
  while (index < text.length) {
    if (/^\s*$/.test(text.slice(index))) break;
    pattern.lastIndex = index;
    const match = pattern.exec(text);
    if (!match) throw new FormulaError(`公式第${index + 1}个字符无法识别`);
    index = pattern.lastIndex;
    if (match[1] !== undefined) tokens.push({ kind: 'num', value: Number(match[1]) });
    else if (match[2] !== undefined) tokens.push({ kind: 'id', name: match[2] });
    else tokens.push({ kind: 'op', op: match[3] === '**' ? '^' : match[3] });
  }
  return tokens;
}

/** Recursive descent: expr = term (+|- term)*; term = unary (*|/ unary)*; unary = -unary | power; power = atom (^ unary)? */
function parse(tokens: Token[]): Formula {
  let at = 0;
  const peek = () => tokens[at];
  const isOp = (op: string) => peek()?.kind === 'op' && (peek() as { op: string }).op === op;
  const expect = (op: string) => {
    if (!isOp(op)) throw new FormulaError(`公式缺少"${op}"`);
    at++;
  };

  const expr = (): Formula => {
    let left = term();
    while (isOp('+') || isOp('-')) {
      const op = (tokens[at++] as { op: string }).op;
      const a = left;
      const b = term();
      left = op === '+' ? (s) => a(s) + b(s) : (s) => a(s) - b(s);
    }
    return left;
  };
  const term = (): Formula => {
    let left = unary();
    while (isOp('*') || isOp('/')) {
      const op = (tokens[at++] as { op: string }).op;
      const a = left;
      const b = unary();
      left = op === '*' ? (s) => a(s) * b(s) : (s) => a(s) / b(s);
    }
    return left;
  };
  const unary = (): Formula => {
    if (isOp('-')) {
      at++;
      const inner = unary();
      return (s) => -inner(s);
    }
    if (isOp('+')) {
      at++;
      return unary();
    }
    return power();
  };
  const power = (): Formula => {
    const base = atom();
    if (!isOp('^')) return base;
    at++;
    const exponent = unary();
    return (s) => base(s) ** exponent(s);
  };
  const atom = (): Formula => {
    const token = tokens[at++];
    if (!token) throw new FormulaError('公式不完整');
    if (token.kind === 'num') return () => token.value;
    if (token.kind === 'op') {
      if (token.op !== '(') throw new FormulaError(`公式中"${token.op}"的位置不对`);
      const inner = expr();
      expect(')');
      return inner;
    }
    if (isOp('(')) {
      const fn = FUNCTIONS[token.name];
      if (!fn) throw new FormulaError(`未知函数 ${token.name}`);
      at++;
      const args: Formula[] = [];
      if (!isOp(')')) {
        args.push(expr());
        while (isOp(',')) {
          at++;
          args.push(expr());
        }
      }
      expect(')');
      return (s) => fn(...args.map((arg) => arg(s)));
    }
    if (!VARIABLES.has(token.name as keyof FormulaScope)) throw new FormulaError(`未知变量 ${token.name}(可用 x、x0、T)`);
    const name = token.name as keyof FormulaScope;
    return (s) => s[name];
  };

  const formula = expr();
  if (at < tokens.length) throw new FormulaError('公式末尾有多余内容');
  return formula;
}

export function compileFormula(text: string): Formula {
  const tokens = tokenize(text);
  if (tokens.length === 0) throw new FormulaError('公式为空');
  return parse(tokens);
}

const identity: Formula = (s) => s.x;

/**
 * A model's formula field: empty (values are used as sent), one expression for every channel, or a JSON object of
 * expressions by point key (`{"tilt_x": "x * 0.001"}`; keys it does not name are used as sent).
 */
export function compileModelFormula(text: string | null | undefined): (pointKey: string) => Formula {
  const source = (text ?? '').trim();
  if (!source) return () => identity;
  if (!source.startsWith('{')) {
    const one = compileFormula(source);
    return () => one;
  }
  let map: unknown;
  try {
    map = JSON.parse(source);
  } catch {
    throw new FormulaError('公式 JSON 格式不正确');
  }
  const compiled = new Map<string, Formula>();
  for (const [key, expression] of Object.entries(map as Record<string, unknown>)) {
    if (typeof expression !== 'string') throw new FormulaError(`点位 ${key} 的公式应为字符串`);
    compiled.set(key, compileFormula(expression));
  }
  return (pointKey) => compiled.get(pointKey) ?? identity;
}
