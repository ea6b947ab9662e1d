import { Tag } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { i18n } from '@lingui/core';
import { http } from '../../api/client';
import type { Row } from '../../crud/api';
import type { RowAction } from '../../crud/types';
import { toastSuccess } from '../../ui/toast';

/** OSS and SMS configs: status 2 is the tenant's one enabled config (BladeX: 1 disabled, 2 enabled). */
export const ENABLED = 2;

export const statusTag = (row: Row) =>
  Number(row.status) === ENABLED ? <Tag minimal intent="success">{i18n._(msg`启用`)}</Tag> : <Tag minimal>{i18n._(msg`停用`)}</Tag>;

/** 启用: POST <base>/enable?id=; the server disables the tenant's other configs. */
export function enableAction(base: string): RowAction {
  return {
    key: 'enable',
    label: msg`启用`,
    icon: 'tick-circle',
    permission: 'enable',
    visible: (row) => Number(row.status) !== ENABLED,
    async run(row, context) {
      try {
        await http.post(`${base}/enable`, { searchParams: { id: row.id } });
        toastSuccess(i18n._(msg`操作成功!`));
        context.refresh();
      } catch {
        // the request layer has shown the failure
      }
    },
  };
}
