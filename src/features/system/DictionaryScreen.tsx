import { Dialog, DialogBody } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import type { Dictionary } from '../../../resources/system/dict';
import type { Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import { childView, parentView } from './dictionaryViews';

/** A dictionary family's screen: parents in the page, a parent's entries (a tree) in a dialog. */
export function DictionaryScreen({ resource }: { resource: Dictionary }) {
  const { t } = useLingui();
  const [parent, setParent] = useState<Row>();
  const parents = useMemo(() => parentView(resource, setParent), [resource]);
  const children = useMemo(() => (parent ? childView(resource, parent) : undefined), [resource, parent]);
  const name = String(parent?.dictValue ?? '');
  return (
    <>
      <CrudPage view={parents} />
      {children && parent && (
        <Dialog isOpen title={t`字典配置: ${name}`} onClose={() => setParent(undefined)} style={{ width: 1000, maxWidth: '95vw' }} className="vg-dict-children">
          <DialogBody>
            <CrudPage view={children} />
          </DialogBody>
        </Dialog>
      )}
    </>
  );
}
