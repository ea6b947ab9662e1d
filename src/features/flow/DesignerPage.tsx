import { Button, Callout, Classes, FileInput, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import type Canvas from 'diagram-js/lib/core/Canvas';
import type EventBus from 'diagram-js/lib/core/EventBus';
import type Modeling from 'bpmn-js/lib/features/modeling/Modeling';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { navigate } from '../../app/navigation';
import { usePermissions } from '../../app/permissions';
import { confirm } from '../../ui/confirm';
import { saveFile } from '../../ui/saveFile';
import { toast, toastSuccess, toastWarning } from '../../ui/toast';
import type { Modeler } from './bpmnModeler';
import { BPMN_ACCEPT, isBpmnFileName } from './deployTarget';
import { importProblem } from './diagramMarkers';
import { type FlowModelRow, modelDetail, submitModel } from './flowApi';
import { modelFileName, newModelXml } from './bpmnTemplate';
import './designer.css';

const MODEL_LIST = '/flow/model';

/** `${body}`: a process expression, put into messages as a value (a brace in a message text is a placeholder). */
const expression = (body: string) => `\${${body}}`;
const applyUser = expression('applyUser');
const deptHead = expression('deptHead(applyUser)');
const pass = expression('pass');
const notPass = expression('!pass');
const longLeave = expression('days > 3');

type Loaded = { kind: 'loading' } | { kind: 'missing' } | { kind: 'ready'; model: FlowModelRow } | { kind: 'failed'; message: string };

/** What the designer reads of the diagram's root: the process (or a collaboration of pools). */
interface RootBusinessObject {
  $type: string;
  id: string;
}

/**
 * /flow/model/design?id= (流程设计): the model's BPMN in bpmn-js's modeler with the properties panel (Camunda's user
 * task and condition properties), loaded as its own chunk when the designer opens. A model without XML starts from
 * start → 审批 → end. 保存 sends the XML with the model's columns (model/submit); a refusal — the BPMN problem, its
 * element and line — is shown by the request layer and the user's work stays. 导入 reads a .bpmn file into the
 * canvas, 下载 saves the current XML.
 */
export default function DesignerPage() {
  const { t } = useLingui();
  const id = new URLSearchParams(useSearch()).get('id') ?? '';
  const permissions = usePermissions();
  const canSave = permissions.flow_model_edit === true;
  const canvasHost = useRef<HTMLDivElement>(null);
  const panelHost = useRef<HTMLDivElement>(null);
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  const [modeler, setModeler] = useState<Modeler>();
  const [problem, setProblem] = useState<string>();
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [showHelp, setShowHelp] = useState(true);
  const model = loaded.kind === 'ready' ? loaded.model : undefined;

  // The model.
  useEffect(() => {
    if (!id) return setLoaded({ kind: 'missing' });
    let gone = false;
    setLoaded({ kind: 'loading' });
    modelDetail(id).then(
      (row) => !gone && setLoaded(row?.id ? { kind: 'ready', model: row } : { kind: 'missing' }),
      (error: unknown) => !gone && setLoaded({ kind: 'failed', message: importProblem(error) }),
    );
    return () => {
      gone = true;
    };
  }, [id]);

  // The modeler, once the model is known and its chunk has loaded; destroyed with the page.
  const ready = loaded.kind === 'ready';
  useEffect(() => {
    if (!ready) return;
    let gone = false;
    let created: Modeler | undefined;
    const descriptions = {
      assignee: t`用户 id,或表达式,如 ${applyUser}(发起人)、${deptHead}(发起人的部门负责人)`,
      candidateUsers: t`逗号分隔的用户 id 或表达式(如 ${applyUser});任一候选人可签收`,
      candidateGroups: t`逗号分隔:role:角色别名、dept:部门id、post:岗位编码;不带前缀即角色别名`,
      dueDate: t`到期时间:ISO 8601 日期时间或时长(如 P3D),也可为表达式`,
      formKey: t`办理页打开的表单:leave(请假)、alarm(告警)或 process(通用);不填或不认识时按流程分类打开`,
      conditionExpression: t`条件表达式,如 ${pass}、${notPass}、${longLeave}`,
    };
    import('./bpmnModeler').then(
      ({ createModeler }) => {
        if (gone || !canvasHost.current || !panelHost.current) return;
        created = createModeler({ container: canvasHost.current, panel: panelHost.current, descriptions });
        setModeler(created);
      },
      (error: unknown) => !gone && setProblem(importProblem(error)),
    );
    return () => {
      gone = true;
      created?.destroy();
    };
    // Made once per model: a language switch keeps the work (the panel's help stays in the language it opened in).
  }, [ready]);

  /**
   * Draws a document; the process id becomes the model's key (the server takes a model's XML only with its key as
   * process id). Resolves false, the canvas left as it was, when bpmn-js cannot import the document.
   */
  const show = useCallback(
    async (xml: string, fallback?: string): Promise<boolean> => {
      if (!modeler || !model) return false;
      try {
        await modeler.importXML(xml);
      } catch (error) {
        toast(t`流程文件无法导入: ${importProblem(error)}`);
        if (fallback !== undefined) await modeler.importXML(fallback).catch(() => undefined);
        return false;
      }
      const canvas = modeler.get<Canvas>('canvas');
      canvas.zoom('fit-viewport', 'auto' as unknown as Parameters<Canvas['zoom']>[1]);
      // A process diagram's root is its process shape (the canvas types it as a bare root).
      const root = canvas.getRootElement() as unknown as Parameters<Modeling['updateProperties']>[0];
      const business = (root as { businessObject?: RootBusinessObject }).businessObject;
      if (business?.$type === 'bpmn:Process' && business.id !== model.modelKey) {
        modeler.get<Modeling>('modeling').updateProperties(root, { id: model.modelKey });
        toastWarning(t`流程标识已由 ${business.id} 改为模型标识 ${model.modelKey}`);
      }
      return true;
    },
    [modeler, model, t],
  );

  // The model's XML (or the template) once the modeler exists; changes mark the work unsaved.
  useEffect(() => {
    if (!modeler || !model) return;
    let gone = false;
    const changed = () => !gone && setDirty(true);
    void show(model.xml?.trim() ? model.xml : newModelXml({ modelKey: model.modelKey, name: model.name })).then(() => !gone && setDirty(!model.xml?.trim()));
    const bus = modeler.get<EventBus>('eventBus');
    bus.on('commandStack.changed', changed);
    return () => {
      gone = true;
      bus.off('commandStack.changed', changed);
    };
    // Drawn once per model: the row changes identity after a save, and the canvas keeps the work then.
  }, [modeler, model?.id]);

  const currentXml = useCallback(async (): Promise<string | undefined> => {
    if (!modeler) return undefined;
    const { xml } = await modeler.saveXML({ format: true });
    return xml;
  }, [modeler]);

  const save = useCallback(async () => {
    if (!model || !modeler || saving || !canSave) return;
    const xml = await currentXml();
    if (!xml) return;
    setSaving(true);
    try {
      const saved = await submitModel({ id: model.id, modelKey: model.modelKey, name: model.name, description: model.description ?? null, category: model.category ?? null, xml });
      toastSuccess(t`保存成功`);
      setDirty(false);
      setLoaded({ kind: 'ready', model: { ...model, ...saved, xml } });
    } catch {
      // the request layer has shown the refusal (the element and line of a BPMN problem); the work stays on the canvas
    } finally {
      setSaving(false);
    }
  }, [model, modeler, saving, canSave, currentXml, t]);

  // Ctrl/⌘+S saves; leaving the page with unsaved work asks first.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void save();
      }
    };
    const onUnload = (event: BeforeUnloadEvent) => {
      if (dirty) event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('beforeunload', onUnload);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('beforeunload', onUnload);
    };
  }, [save, dirty]);

  async function importFile(file: File | undefined) {
    if (!file) return;
    if (!isBpmnFileName(file.name)) return toast(t`只能导入 .bpmn、.bpmn20.xml 或 .xml 文件`);
    const before = await currentXml();
    if (await show(await file.text(), before)) setDirty(true);
  }

  /** Back to the list; unsaved work is asked about first (the tab itself stays open with it otherwise). */
  async function leave() {
    if (dirty && !(await confirm(t`设计尚未保存,离开后修改将丢失。确定离开?`))) return;
    navigate(MODEL_LIST);
  }

  async function download() {
    const xml = await currentXml();
    if (xml && model) saveFile(new Blob([xml], { type: 'application/xml' }), modelFileName(model.modelKey));
  }

  if (loaded.kind === 'loading') return <Spinner className="vg-flow-designer-loading" />;
  if (loaded.kind !== 'ready') {
    return (
      <NonIdealState
        icon="diagram-tree"
        title={loaded.kind === 'missing' ? t`模型不存在或无权操作` : t`模型加载失败`}
        description={loaded.kind === 'failed' ? loaded.message : t`请从模型管理中选择要设计的模型`}
        action={<Button icon="chevron-left" text={t`返回模型管理`} onClick={() => navigate(MODEL_LIST)} />}
      />
    );
  }

  return (
    <div className="vg-flow-designer">
      <div className="vg-flow-designer-bar">
        <Button icon="chevron-left" variant="minimal" text={t`模型管理`} onClick={() => void leave()} />
        <strong className="vg-flow-designer-title">{loaded.model.name}</strong>
        <Tag minimal title={t`模型标识`}>
          {loaded.model.modelKey}
        </Tag>
        {dirty ? (
          <Tag minimal intent="warning" className="vg-flow-designer-dirty">
            {t`未保存`}
          </Tag>
        ) : (
          loaded.model.version ? <Tag minimal intent="success">{t`已保存 ${loaded.model.version} 次`}</Tag> : null
        )}
        <span className="vg-flow-designer-spacer" />
        <FileInput
          className="vg-flow-designer-import"
          text={t`导入 BPMN 文件`}
          buttonText={t`导入`}
          disabled={!modeler}
          inputProps={{ accept: BPMN_ACCEPT, 'aria-label': t`导入 BPMN 文件` }}
          onInputChange={(e) => {
            const input = e.target as HTMLInputElement;
            void importFile(input.files?.[0]).finally(() => {
              input.value = '';
            });
          }}
        />
        <Button icon="download" text={t`下载 XML`} disabled={!modeler} onClick={() => void download()} />
        <Button icon="help" text={t`填写说明`} active={showHelp} onClick={() => setShowHelp((v) => !v)} />
        {canSave && <Button icon="tick-circle" intent="primary" text={t`保存`} loading={saving} disabled={!modeler} onClick={() => void save()} className="vg-flow-designer-save" />}
      </div>
      {problem && (
        <Callout intent="danger" compact>
          {t`设计器无法加载: ${problem}`}
        </Callout>
      )}
      <div className="vg-flow-designer-body">
        <div className="vg-flow-designer-canvas" ref={canvasHost}>
          {!modeler && !problem && <Spinner className="vg-flow-designer-loading" />}
        </div>
        <aside className="vg-flow-designer-side">
          {showHelp && (
            <Callout className={`vg-flow-designer-help ${Classes.TEXT_SMALL}`} icon="info-sign" title={t`填写说明`}>
              <ul>
                <li>{t`用户任务的「Assignee」(处理人)与「Candidate users」(候选人)填用户 id 或表达式,如 ${applyUser}(发起人)、${deptHead}(发起人的部门负责人)。`}</li>
                <li>{t`「Candidate groups」(候选组)逗号分隔:role:角色别名、dept:部门id、post:岗位编码;不带前缀的词即角色别名。`}</li>
                <li>{t`连线的「Condition」选 Expression,填 ${pass}(同意)、${notPass}(驳回)、${longLeave} 等。`}</li>
                <li>{t`流程标识(Process ID)即模型标识;保存时服务端检查流程能否运行,问题会指出元素 id 和行号。`}</li>
              </ul>
            </Callout>
          )}
          <div className="vg-flow-designer-panel" ref={panelHost} />
        </aside>
      </div>
    </div>
  );
}
