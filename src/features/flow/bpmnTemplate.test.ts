import camunda from 'camunda-bpmn-moddle/resources/camunda.json';
import { describe, expect, it } from 'vitest';
import { modelFileName, newModelXml } from './bpmnTemplate';

interface Moddle {
  fromXML(xml: string): Promise<{ rootElement: unknown; warnings: unknown[] }>;
}

/**
 * bpmn-moddle ships no types of its parser; the server declares them (server/flow/vendor.d.ts) for its own build. The
 * test loads it by a specifier TypeScript does not resolve, typed as far as it is used here.
 */
const MODDLE = 'bpmn-moddle';
const loadModdle = async (): Promise<new (extensions: Record<string, unknown>) => Moddle> =>
  ((await import(/* @vite-ignore */ MODDLE)) as { BpmnModdle: new (extensions: Record<string, unknown>) => Moddle }).BpmnModdle;

/** Parses as the designer does (bpmn-moddle with Camunda's extension) and fails on any warning. */
async function parse(xml: string) {
  const BpmnModdle = await loadModdle();
  const moddle = new BpmnModdle({ camunda });
  const { rootElement, warnings } = await moddle.fromXML(xml);
  expect(warnings).toEqual([]);
  return rootElement as unknown as { rootElements: Array<Record<string, unknown> & { flowElements: Array<Record<string, unknown>> }>; diagrams: unknown[] };
}

describe('newModelXml', () => {
  it('is an executable process start → user task → end, with its diagram, named after the model', async () => {
    const definitions = await parse(newModelXml({ modelKey: 'leave_v2', name: '请假 & 调休' }));
    const [process] = definitions.rootElements;
    expect(process.$type).toBe('bpmn:Process');
    expect(process.id).toBe('leave_v2');
    expect(process.name).toBe('请假 & 调休');
    expect(process.isExecutable).toBe(true);
    expect(process.flowElements.map((e) => e.$type).sort()).toEqual(['bpmn:EndEvent', 'bpmn:SequenceFlow', 'bpmn:SequenceFlow', 'bpmn:StartEvent', 'bpmn:UserTask']);
    const task = process.flowElements.find((e) => e.$type === 'bpmn:UserTask');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a process expression, not a template
    expect(task?.assignee).toBe('${applyUser}');
    expect(definitions.diagrams).toHaveLength(1);
  });

  it('declares the camunda namespace and escapes what it is given', () => {
    const xml = newModelXml({ modelKey: 'a"b', name: '<x>' });
    expect(xml).toContain('xmlns:camunda="http://camunda.org/schema/1.0/bpmn"');
    expect(xml).toContain('id="a&quot;b"');
    expect(xml).toContain('name="&lt;x&gt;"');
  });
});

describe('modelFileName', () => {
  it('names the file after the key', () => {
    expect(modelFileName('leave')).toBe('leave.bpmn20.xml');
    expect(modelFileName('')).toBe('process.bpmn20.xml');
  });
});
