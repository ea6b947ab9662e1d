import { Button, NonIdealState, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import type { DebugKind } from '../../../streams/debug';
import { navigate } from '../../app/navigation';
import { type Choice, choices } from './api';

/** Without `?id=`: the devices (or gateways) the caller may open in this view. */
export function TargetPicker({ kind, path }: { kind: DebugKind; path: string }) {
  const { t } = useLingui();
  const [list, setList] = useState<Choice[]>();
  useEffect(() => {
    void choices(kind).then(setList, () => setList([]));
  }, [kind]);
  if (!list) return <Spinner size={24} />;
  if (list.length === 0) return <NonIdealState icon="search" title={kind === 'device' ? t`没有可查看的设备` : t`没有可查看的网关`} />;
  return (
    <div className="vg-picker">
      <p>{kind === 'device' ? t`请选择设备:` : t`请选择网关:`}</p>
      {list.map((c) => (
        <Button key={c.id} variant="outlined" className="vg-picker-item" onClick={() => navigate(`${path}?id=${c.id}`)}>
          {c.code} · {c.name}
        </Button>
      ))}
    </div>
  );
}
