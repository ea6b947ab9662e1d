import { Callout } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import type { ProjectBelongings } from '../../../resources/iot/project';
import { type Envelope, http } from '../../api/client';
import { X } from './projectViews';

/** The counts of the selected projects' rows, and where they come back from. */
function RemoveNotice({ counts }: { counts: ProjectBelongings }) {
  const { t } = useLingui();
  const lines = [
    counts.devices ? t`设备 ${counts.devices} 台(其中在线 ${counts.onlineDevices} 台)` : '',
    counts.gateways ? t`网关 ${counts.gateways} 个` : '',
    counts.devicePoints ? t`设备点位 ${counts.devicePoints} 个` : '',
    counts.monitorPoints ? t`监测点 ${counts.monitorPoints} 个` : '',
    counts.thresholds ? t`阈值 ${counts.thresholds} 条` : '',
    counts.alarms ? t`告警 ${counts.alarms} 条` : '',
    counts.groups ? t`设备分组 ${counts.groups} 个` : '',
  ].filter(Boolean);
  return (
    <Callout intent="warning" icon="warning-sign" className="vg-remove-notice">
      <p>{lines.length ? t`所选 ${counts.projects} 个项目连同以下数据将一起移入回收站,不再在各列表中显示:` : t`所选 ${counts.projects} 个项目将移入回收站。`}</p>
      {lines.length > 0 && <ul className="vg-remove-counts">{lines.map((line) => <li key={line}>{line}</li>)}</ul>}
      <p>{t`可在本页工具栏的「回收站」中恢复,恢复后以上数据原样恢复。`}</p>
    </Callout>
  );
}

/** The notice under the delete confirmation of the project list (CrudView.removeNotice). */
export async function projectRemoveNotice(ids: readonly string[]) {
  const { data } = await http.get<Envelope<ProjectBelongings>>(`${X}/project/belongings`, { searchParams: { ids: ids.join(',') } });
  return <RemoveNotice counts={data} />;
}
