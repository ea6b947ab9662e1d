/** jexl 2.3 ships no types: the part of its API the workflow's expressions use (server/flow/expressions.ts). */
declare module 'jexl' {
  export interface JexlExpression {
    evalSync(context?: Record<string, unknown>): unknown;
  }
  export class Jexl {
    addFunction(name: string, fn: (...args: unknown[]) => unknown): void;
    addBinaryOp(operator: string, precedence: number, fn: (left: unknown, right: unknown) => unknown): void;
    compile(expression: string): JexlExpression;
    evalSync(expression: string, context?: Record<string, unknown>): unknown;
  }
}

/** bpmn-moddle 10 types only its meta-model (`bpmn-moddle/types`): the parser as server/flow/bpmn.ts uses it. */
declare module 'bpmn-moddle' {
  /** A parsed element: its BPMN type, attributes of other namespaces, and the properties of its type. */
  export interface ModdleElement {
    $type: string;
    id?: string;
    name?: string;
    $attrs?: Record<string, string>;
    [property: string]: unknown;
  }
  export interface ParseWarning {
    message: string;
    element?: ModdleElement;
    property?: string;
    value?: unknown;
  }
  export interface ParseResult {
    rootElement: ModdleElement;
    warnings: ParseWarning[];
    elementsById: Record<string, ModdleElement>;
    references: unknown[];
  }
  export class BpmnModdle {
    constructor(packages?: Record<string, unknown>);
    fromXML(xml: string): Promise<ParseResult>;
  }
}
