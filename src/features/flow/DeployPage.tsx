import { Button, Dialog, DialogBody, DialogFooter, NonIdealState, Spinner, Switch } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useState } from 'react';
import type { FlowDiagram } from '../../../resources/wire/flow';
import { RequestError } from '../../api/http';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import type { RowAction, ToolbarAction } from '../../crud/types';
import { useDictionary } from '../../crud/widgets';
import { confirm } from '../../ui/confirm';
import { toast, toastSuccess } from '../../ui/toast';
import { DeployDialog } from './DeployDialog';
import { categoryOptions } from './deployTarget';
import { deployView, isSuspended, refusedForRunning } from './deployView';
import { importProblem } from './diagramMarkers';
import { changeDefinitionState, definitionDiagram, deleteDeployments, uploadDeployment } from './flowApi';
import { ProcessDiagram } from './ProcessDiagram';
import { usePlatformAdmin } from './platformAdmin';

/**
 * /flow/deploy (部署管理): the process definitions, every version (只看最新版本: the newest of each key), 挂起 / 激活,
 * 查看流程图, 删除 (and, when instances run, 删除并终止运行中的实例), and 上传 of BPMN files.
 */
export default function DeployPage() {
  const { t } = useLingui();
  const entries = useDictionary('flow');
  const platformAdmin = usePlatformAdmin();
  const [latestOnly, setLatestOnly] = useState(false);
  const [uploading, setUploading] = useState<{ refresh(): void }>();
  const [diagramOf, setDiagramOf] = useState<Row>();

  const view = useMemo(() => {
    const setState = async (row: Row, state: 'active' | 'suspend', refresh: () => void) => {
      const question =
        state === 'suspend' ? t`挂起后该版本不能再发起新流程,运行中的流程继续。确定挂起「${String(row.name)}」v${String(row.version)}?` : t`确定激活「${String(row.name)}」v${String(row.version)}?`;
      if (!(await confirm(question))) return;
      try {
        await changeDefinitionState(row.id, state);
        toastSuccess(t`操作成功!`);
        refresh();
      } catch {
        // the request layer has shown the failure
      }
    };
    const remove = async (row: Row, refresh: () => void) => {
      if (!(await confirm(t`确定删除「${String(row.name)}」v${String(row.version)} 的部署?`))) return;
      const ids = [String(row.deploymentId ?? row.id)];
      try {
        await deleteDeployments(ids);
      } catch (error) {
        if (!refusedForRunning(error)) {
          // Refusals are this page's to show (ownRefusals); other failures the request layer has shown.
          if (error instanceof RequestError && error.code === 400) toast(error.message);
          return;
        }
        const detail = (
          <div className="vg-flow-cascade">
            <p>{(error as Error).message}</p>
            <p>{t`继续将终止这些运行中的实例(原因:删除部署)并删除该部署,不能撤销。`}</p>
          </div>
        );
        const cascade = await confirm(t`删除并终止运行中的实例?`, detail);
        if (!cascade) return;
        try {
          await deleteDeployments(ids, true);
        } catch {
          return;
        }
      }
      toastSuccess(t`删除成功`);
      refresh();
    };
    const rowActions: RowAction[] = [
      { key: 'suspend', label: msg`挂起`, icon: 'disable', permission: 'edit', visible: (row) => !isSuspended(row), run: (row, c) => void setState(row, 'suspend', c.refresh) },
      { key: 'activate', label: msg`激活`, icon: 'play', permission: 'edit', visible: isSuspended, run: (row, c) => void setState(row, 'active', c.refresh) },
      { key: 'diagram', label: msg`查看流程图`, icon: 'flows', run: (row) => setDiagramOf(row) },
      { key: 'remove', label: msg`删除`, icon: 'trash', permission: 'delete', run: (row, c) => void remove(row, c.refresh) },
    ];
    const toolbarActions: ToolbarAction[] = [{ key: 'upload', label: msg`上传`, icon: 'upload', permission: 'upload', run: (c) => setUploading({ refresh: c.refresh }) }];
    return deployView(categoryOptions(entries), rowActions, toolbarActions, platformAdmin);
  }, [entries, t, platformAdmin]);

  return (
    <>
      <CrudPage
        view={view}
        params={latestOnly ? { latest: 'true' } : undefined}
        toolbar={<Switch className="vg-flow-latest" checked={latestOnly} label={t`只看最新版本`} onChange={(e) => setLatestOnly(e.currentTarget.checked)} style={{ margin: '0 8px' }} />}
      />
      {uploading && (
        <DeployDialog
          title={t`上传部署`}
          withFiles
          deploy={async (target, files, onProgress) => {
            await uploadDeployment(files, target, (sent, total) => onProgress(total ? sent / total : 0));
          }}
          onDeployed={uploading.refresh}
          onClose={() => setUploading(undefined)}
        />
      )}
      {diagramOf && <DefinitionDiagramDialog row={diagramOf} onClose={() => setDiagramOf(undefined)} />}
    </>
  );
}

/** 查看流程图: the definition's BPMN (process/diagram?processDefinitionId=). */
function DefinitionDiagramDialog({ row, onClose }: { row: Row; onClose(): void }) {
  const { t } = useLingui();
  const [diagram, setDiagram] = useState<FlowDiagram>();
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    let gone = false;
    definitionDiagram(row.id).then(
      (found) => !gone && setDiagram(found),
      (error: unknown) => !gone && setProblem(importProblem(error)),
    );
    return () => {
      gone = true;
    };
  }, [row.id]);
  return (
    <Dialog isOpen title={t`流程图:${String(row.name)} v${String(row.version)}`} icon="flows" onClose={onClose} style={{ width: 'min(1100px, 94vw)' }} className="vg-flow-diagram-dialog">
      <DialogBody>
        {diagram ? (
          <ProcessDiagram xml={diagram.xml} finished={diagram.finished} active={diagram.active} height="min(640px, 70vh)" />
        ) : problem ? (
          <NonIdealState icon="error" title={t`流程图加载失败`} description={problem} />
        ) : (
          <Spinner />
        )}
      </DialogBody>
      <DialogFooter actions={<Button text={t`关闭`} onClick={onClose} />} />
    </Dialog>
  );
}
