import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import { navigate } from '../../app/navigation';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import type { RowAction } from '../../crud/types';
import { useDictionary } from '../../crud/widgets';
import { DeployDialog } from './DeployDialog';
import { categoryOptions } from './deployTarget';
import { deployModel } from './flowApi';
import { designerPath, modelView } from './modelView';
import { usePlatformAdmin } from './platformAdmin';

/**
 * /flow/model (模型管理): the models, 新增 / 编辑 of their key, name, category and description, 设计 (the designer
 * tab, also opened after a new model is saved), 部署 (button flow_model_deploy) and 删除.
 */
export default function ModelPage() {
  const { t } = useLingui();
  const entries = useDictionary('flow');
  const platformAdmin = usePlatformAdmin();
  const [deploying, setDeploying] = useState<{ row: Row; refresh(): void }>();

  const view = useMemo(() => {
    const rowActions: RowAction[] = [
      { key: 'design', label: msg`设计`, icon: 'diagram-tree', permission: 'edit', run: (row) => navigate(designerPath(row.id)) },
      { key: 'deploy', label: msg`部署`, icon: 'upload', permission: 'deploy', run: (row, context) => setDeploying({ row, refresh: context.refresh }) },
    ];
    return modelView(categoryOptions(entries), rowActions, platformAdmin);
  }, [entries, platformAdmin]);

  return (
    <>
      <CrudPage view={view} onSaved={(saved, mode) => mode === 'add' && navigate(designerPath(saved.id))} />
      {deploying && (
        <DeployDialog
          title={t`部署模型:${String(deploying.row.name ?? deploying.row.modelKey ?? '')}`}
          category={typeof deploying.row.category === 'string' ? deploying.row.category : undefined}
          deploy={(target) => deployModel(deploying.row.id, target)}
          onDeployed={deploying.refresh}
          onClose={() => setDeploying(undefined)}
        />
      )}
    </>
  );
}
