import { msg } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Tag } from '@blueprintjs/core';
import { notice } from '../../../resources/desk/notice';
import { isUnread } from '../../../machines/noticeRead';
import type { Row } from '../../crud/api';
import type { CrudView, RowAction } from '../../crud/types';
import { READ_ONLY } from '../../crud/viewHelpers';

/** Spec §9: notice page size 10; the notice detail dialog is 55% wide. */
export const NOTICE_PAGE_SIZE = 10;

const dateOf = (row: Row) => String(row.releaseTime ?? '').slice(0, 10);

/**
 * The notice list of the 站内通知 dialog (spec §2 "Notice list dialog"): view only — every user may read their
 * notices, whatever menu buttons they hold — with 'mark as read' on unread rows.
 */
export function noticeListView(markRead: RowAction['run']): CrudView<typeof notice> {
  return {
    resource: notice,
    actions: READ_ONLY,
    dialogWidth: '55%',
    pageSize: NOTICE_PAGE_SIZE,
    fields: [
      { name: 'title', label: msg`通知标题`, search: true, width: 260, span: 24 },
      { name: 'category', label: msg`通知类型`, widget: { type: 'select', dict: 'notice' }, width: 110 },
      { name: 'releaseTime', label: msg`通知日期`, widget: { type: 'date' }, width: 110, cell: dateOf },
      {
        name: 'readFlag',
        label: msg`是否已读`,
        derived: true,
        hideInForm: true,
        width: 90,
        sortable: false,
        cell: (row) => (isUnread({ id: row.id, readFlag: row.readFlag as number }) ? <Tag intent="warning" minimal className="vg-unread"><Trans>未读</Trans></Tag> : <Tag minimal className="vg-read"><Trans>已读</Trans></Tag>),
      },
      { name: 'content', label: msg`通知内容`, widget: { type: 'richText' }, hideInTable: true },
    ],
    rowActions: [{ key: 'read', label: msg`标为已读`, icon: 'tick-circle', visible: (row) => isUnread({ id: row.id, readFlag: row.readFlag as number }), run: markRead }],
  };
}
