import { Button } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { navigate } from '../../app/navigation';
import { detailPath, type FlowRouteEntry } from './processRoutes';

/** 详情 of a list row: the detail page of the instance's category (disabled when the console has none for it). */
export function DetailButton({
  routes,
  instance,
}: {
  routes: { entries: readonly FlowRouteEntry[]; loaded: boolean };
  instance: { processInstanceId: string; businessId: string | null; category: string | null };
}) {
  const { t } = useLingui();
  const to = detailPath(routes.entries, instance);
  return (
    <Button
      size="small"
      icon="eye-open"
      className="vg-action-detail"
      text={t`详情`}
      disabled={!to}
      title={!to && routes.loaded ? t`该流程分类没有详情页面` : undefined}
      onClick={() => to && navigate(to)}
    />
  );
}
