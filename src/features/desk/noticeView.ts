import { msg } from '@lingui/core/macro';
import { notice } from '../../../resources/desk/notice';
import type { CrudView } from '../../crud/types';

/**
 * Spec §2 "Notice list dialog" fields, managed here (通知公告). The release time is a date (stored at midnight).
 * Content is sanitised in the browser and again by the server.
 */
export const noticeView: CrudView<typeof notice> = {
  resource: notice,
  dialogWidth: 880,
  fields: [
    { name: 'title', label: msg`通知标题`, search: true, required: msg`请输入通知标题`, width: 260 },
    { name: 'category', label: msg`通知类型`, widget: { type: 'select', dict: 'notice' }, search: true, required: msg`请选择通知类型`, width: 140 },
    { name: 'releaseTime', label: msg`通知日期`, widget: { type: 'date', midnight: true }, cell: (row) => String(row.releaseTime ?? '').slice(0, 10), width: 140 },
    { name: 'content', label: msg`通知内容`, widget: { type: 'richText' }, hideInTable: true },
  ],
};
