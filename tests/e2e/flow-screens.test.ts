import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { FlowDefinition } from '../../resources/wire/flow';
import { consoleSuite } from './support/console';
import { confirmYes, dialog, rowAction } from './support/crud';

interface Page<T> {
  records: T[];
  total: number;
}
interface ModelRow {
  id: string;
  modelKey: string;
  xml: string | null;
  version: number;
}

/** A process whose second task no flow leads to: the server refuses it, naming the element. */
const orphanXml = (key: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC" xmlns:di="http://www.omg.org/spec/DD/20100524/DI" id="d1" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="${key}" isExecutable="true">
    <bpmn:startEvent id="S1"><bpmn:outgoing>F1</bpmn:outgoing></bpmn:startEvent>
    <bpmn:userTask id="T1" name="审批"><bpmn:incoming>F1</bpmn:incoming><bpmn:outgoing>F2</bpmn:outgoing></bpmn:userTask>
    <bpmn:userTask id="Orphan" name="孤立任务"><bpmn:outgoing>F3</bpmn:outgoing></bpmn:userTask>
    <bpmn:endEvent id="E1"><bpmn:incoming>F2</bpmn:incoming><bpmn:incoming>F3</bpmn:incoming></bpmn:endEvent>
    <bpmn:sequenceFlow id="F1" sourceRef="S1" targetRef="T1" />
    <bpmn:sequenceFlow id="F2" sourceRef="T1" targetRef="E1" />
    <bpmn:sequenceFlow id="F3" sourceRef="Orphan" targetRef="E1" />
  </bpmn:process>
  <bpmndi:BPMNDiagram id="D1"><bpmndi:BPMNPlane id="P1" bpmnElement="${key}">
    <bpmndi:BPMNShape id="S1_di" bpmnElement="S1"><dc:Bounds x="100" y="100" width="36" height="36" /></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="T1_di" bpmnElement="T1"><dc:Bounds x="200" y="78" width="100" height="80" /></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="O_di" bpmnElement="Orphan"><dc:Bounds x="200" y="200" width="100" height="80" /></bpmndi:BPMNShape>
    <bpmndi:BPMNShape id="E1_di" bpmnElement="E1"><dc:Bounds x="400" y="100" width="36" height="36" /></bpmndi:BPMNShape>
    <bpmndi:BPMNEdge id="F1_di" bpmnElement="F1"><di:waypoint x="136" y="118" /><di:waypoint x="200" y="118" /></bpmndi:BPMNEdge>
    <bpmndi:BPMNEdge id="F2_di" bpmnElement="F2"><di:waypoint x="300" y="118" /><di:waypoint x="400" y="118" /></bpmndi:BPMNEdge>
    <bpmndi:BPMNEdge id="F3_di" bpmnElement="F3"><di:waypoint x="300" y="240" /><di:waypoint x="418" y="136" /></bpmndi:BPMNEdge>
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</bpmn:definitions>
`;

/** The same process without the orphan: one the engine runs. */
const runnableXml = (key: string) =>
  orphanXml(key)
    .replace(/<bpmn:userTask id="Orphan"[^\n]*\n/, '')
    .replace('<bpmn:incoming>F3</bpmn:incoming>', '')
    .replace(/<bpmn:sequenceFlow id="F3"[^\n]*\n/, '')
    .replace(/<bpmndi:BPMN(Shape|Edge) id="(O_di|F3_di)"[^\n]*\n/g, '');

describe('workflow models, designer and deployments', () => {
  const c = consoleSuite({ screen: { menu: '模型管理', path: '/flow/model' } });
  const files = mkdtempSync(join(tmpdir(), 'vigil-flow-'));
  afterAll(() => rmSync(files, { recursive: true, force: true }));
  const toast = (text: string | RegExp) => c.page.locator('.bp6-toast').filter({ hasText: text }).last();
  const model = async (key: string) => (await c.api.get<Page<ModelRow>>('/api/blade-flow/model/list', { modelKey: key, size: 10 })).body.data.records.find((m) => m.modelKey === key);
  const definitions = async (key: string) =>
    (await c.api.get<Page<FlowDefinition>>('/api/blade-flow/manager/list', { processKey: key, size: 50 })).body.data.records.filter((d) => d.key === key);

  it('adds a model, designs it from the template, keeps the work when the server refuses it and deploys it', async () => {
    const { page } = c;
    await page.locator('.vg-add').click();
    await page.locator('#field-modelKey').fill('e2e_expense');
    await page.locator('#field-name').fill('报销审批');
    await dialog(page).getByRole('button', { name: '保存' }).click();
    // A new model opens in the designer, drawn from the template: start → 审批 → end.
    await page.waitForURL('**/flow/model/design?id=*');
    await page.locator('[data-element-id="Task_1"]').waitFor({ timeout: 30_000 });
    await page.locator('.bio-properties-panel').waitFor();
    await page.locator('.vg-flow-designer-save').click();
    await toast('保存成功').waitFor();
    const saved = await model('e2e_expense');
    expect(saved?.xml).toContain('<bpmn:process id="e2e_expense"');
    expect(saved?.xml).toContain('isExecutable="true"');

    // An imported file the engine cannot run: the refusal names the element, the canvas keeps it.
    writeFileSync(join(files, 'orphan.bpmn'), orphanXml('e2e_expense'));
    await page.locator('.vg-flow-designer-import input[type=file]').setInputFiles(join(files, 'orphan.bpmn'));
    await page.locator('[data-element-id="Orphan"]').waitFor();
    await page.locator('.vg-flow-designer-save').click();
    await toast(/Orphan/).waitFor();
    expect(await toast(/Orphan/).innerText()).toMatch(/第\d+行/);
    expect(await page.locator('[data-element-id="Orphan"]').count()).toBe(1);
    expect((await model('e2e_expense'))?.xml).not.toContain('Orphan');

    // Without the orphan it saves; then 部署 from the list.
    await page.locator('[data-element-id="Orphan"]').click();
    await page.keyboard.press('Delete');
    await page.locator('.vg-flow-designer-save').click();
    await toast('保存成功').waitFor();
    expect((await model('e2e_expense'))?.xml).toContain('id="T1"');
    await page.locator('.vg-flow-designer-bar').getByRole('button', { name: '模型管理' }).click();
    await page.waitForURL('**/flow/model');
    await (await rowAction(page, 'e2e_expense', 'deploy')).click();
    // The platform administrator may pick tenants; none: its own.
    await page.locator('#flow-deploy-tenants').waitFor();
    await page.locator('.vg-flow-deploy-submit').click();
    await toast('部署成功').waitFor();
    const deployed = await definitions('e2e_expense');
    expect(deployed.map((d) => [d.tenantId, d.version])).toEqual([['000000', 1]]);
    expect(deployed[0]?.category).toMatch(/^flow_\w+$/);
  });

  it('suspends, activates, shows, uploads and deletes deployments', async () => {
    const { page } = c;
    await page.goto('/flow/deploy?processKey=e2e_expense');
    await (await rowAction(page, 'e2e_expense', 'suspend')).click();
    await confirmYes(page, '挂起后');
    await toast('操作成功').waitFor();
    await expect.poll(async () => (await definitions('e2e_expense'))[0]?.suspensionState).toBe(2);
    await (await rowAction(page, 'e2e_expense', 'activate')).click();
    await confirmYes(page, '确定激活');
    await expect.poll(async () => (await definitions('e2e_expense'))[0]?.suspensionState).toBe(1);

    await (await rowAction(page, 'e2e_expense', 'diagram')).click();
    await page.locator('.vg-flow-diagram-dialog [data-element-id="T1"]').waitFor({ timeout: 30_000 });
    await dialog(page).getByRole('button', { name: '关闭' }).click();

    // 上传: a file of the same key becomes version 2.
    writeFileSync(join(files, 'e2e_expense.bpmn20.xml'), runnableXml('e2e_expense'));
    await page.locator('.vg-toolbar-upload').click();
    await page.locator('#flow-deploy-files').setInputFiles(join(files, 'e2e_expense.bpmn20.xml'));
    await page.locator('.vg-flow-deploy-submit').click();
    await toast('部署成功').waitFor();
    expect((await definitions('e2e_expense')).map((d) => d.version).sort()).toEqual([1, 2]);

    // An instance runs on version 2: deleting it is refused, then offered with the instances ended.
    const v2 = (await definitions('e2e_expense')).find((d) => d.version === 2);
    const started = await c.api.post('/api/blade-desk/process/leave/start-process', {
      processDefinitionId: v2?.id,
      startTime: '2026-12-01 09:00:00',
      endTime: '2026-12-02 18:00:00',
      reason: 'e2e',
    });
    expect(started.body.code).toBe(200);
    await page.reload();
    await page.locator('.vg-flow-latest').click();
    await (await rowAction(page, 'e2e_expense', 'remove')).click();
    await confirmYes(page, '的部署?');
    await page.locator('.vg-flow-cascade').waitFor();
    expect(await page.locator('.bp6-alert').innerText()).toContain('运行中的流程实例');
    await confirmYes(page, '删除并终止运行中的实例?');
    await toast('删除成功').waitFor();
    expect((await definitions('e2e_expense')).map((d) => d.version)).toEqual([1]);
  });
});
