import { Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, FormGroup, HTMLSelect, ProgressBar } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { type FormEvent, useEffect, useState } from 'react';
import { TreeSelect, useDictionary } from '../../crud/widgets';
import { toastSuccess } from '../../ui/toast';
import { BPMN_ACCEPT, categoryValue, deployTarget, isBpmnFileName } from './deployTarget';
import type { DeployTarget } from './flowApi';
import { usePlatformAdmin } from './platformAdmin';

/** The tenants the platform administrator deploys into: the tenant picker of the user form. */
const TENANT_TREE = 'api/blade-system/tenant/treeList';

export interface DeployDialogProps {
  title: string;
  /** The category chosen at first (a model's own). */
  category?: string | null;
  /** Upload: the dialog also takes one or more BPMN files. */
  withFiles?: boolean;
  /** Deploys; resolves once the server accepted (the dialog closes), rejects when refused (the dialog stays). */
  deploy(target: DeployTarget, files: File[], onProgress: (fraction: number) => void): Promise<void>;
  onClose(): void;
  /** After a deployment the server accepted. */
  onDeployed(): void;
}

/**
 * 部署 of a model and 上传 of the deployment manager: the category (dictionary `flow`, sent as `flow_<dictKey>`),
 * for the platform administrator the tenants to deploy into (none: its own), and for an upload the files.
 */
export function DeployDialog({ title, category: initialCategory, withFiles, deploy, onClose, onDeployed }: DeployDialogProps) {
  const { t } = useLingui();
  const platformAdmin = usePlatformAdmin();
  const categories = useDictionary('flow');
  const [category, setCategory] = useState(initialCategory ?? '');
  const [tenants, setTenants] = useState<string[]>([]);
  const [files, setFiles] = useState<File[]>([]);
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number>();

  // A model without a category deploys in the first one once the dictionary has answered.
  useEffect(() => {
    if (!category && categories[0]) setCategory(categoryValue(categories[0].dictKey));
  }, [category, categories]);

  const pick = (list: FileList | null) => {
    const picked = [...(list ?? [])];
    const refused = picked.filter((f) => !isBpmnFileName(f.name));
    setProblem(refused.length ? t`只能上传 .bpmn、.bpmn20.xml 或 .xml 文件:${refused.map((f) => f.name).join('、')}` : undefined);
    setFiles(picked.filter((f) => isBpmnFileName(f.name)));
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!category) return setProblem(t`请选择流程分类`);
    if (withFiles && files.length === 0) return setProblem(t`请选择要部署的流程文件`);
    setProblem(undefined);
    setBusy(true);
    try {
      await deploy(deployTarget(category, tenants, platformAdmin), files, setProgress);
      toastSuccess(t`部署成功`);
      onDeployed();
      onClose();
    } catch {
      // the request layer has shown the refusal; the dialog keeps what was chosen
    } finally {
      setBusy(false);
      setProgress(undefined);
    }
  }

  return (
    <Dialog isOpen title={title} icon="upload" onClose={onClose} style={{ width: 560 }} canOutsideClickClose={!busy} className="vg-flow-deploy">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <DialogBody>
          <FormGroup label={t`流程分类`} labelFor="flow-deploy-category" labelInfo="*">
            <HTMLSelect id="flow-deploy-category" fill value={category} onChange={(e) => setCategory(e.target.value)} disabled={busy}>
              <option value="">{t`请选择`}</option>
              {categories.map((c) => (
                <option key={c.dictKey} value={categoryValue(c.dictKey)}>
                  {c.dictValue}
                </option>
              ))}
            </HTMLSelect>
          </FormGroup>
          {platformAdmin && (
            <FormGroup label={t`部署租户`} labelFor="flow-deploy-tenants" helperText={t`不选则部署到当前租户;选中多个租户时在每个租户各部署一个版本`}>
              <TreeSelect id="flow-deploy-tenants" source={TENANT_TREE} multiple value={tenants} disabled={busy} onChange={(value) => setTenants(Array.isArray(value) ? value.map(String) : value ? [String(value)] : [])} />
            </FormGroup>
          )}
          {withFiles && (
            <FormGroup label={t`流程文件`} labelFor="flow-deploy-files" labelInfo="*" helperText={t`每个文件成为其流程标识的下一个版本`}>
              <FileInput
                fill
                text={files.length ? files.map((f) => f.name).join('、') : t`选择文件`}
                hasSelection={files.length > 0}
                buttonText={t`浏览`}
                disabled={busy}
                inputProps={{ id: 'flow-deploy-files', accept: BPMN_ACCEPT, multiple: true }}
                onInputChange={(e) => pick((e.target as HTMLInputElement).files)}
              />
            </FormGroup>
          )}
          {busy && withFiles && <ProgressBar intent="primary" value={progress} stripes={progress === undefined || progress >= 1} />}
          {problem && (
            <Callout intent="danger" compact>
              {problem}
            </Callout>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t`取消`} onClick={onClose} disabled={busy} />
              <Button type="submit" intent="primary" icon="upload" text={t`部署`} loading={busy} className="vg-flow-deploy-submit" />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
