import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { attach } from '../../../resources/resource/attach';
import { putFile } from '../../api/resource';
import type { Row } from '../../crud/api';
import type { CrudView } from '../../crud/types';
import { toastSuccess } from '../../ui/toast';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 1536 → "1.50 KB". */
export function humanSize(bytes: unknown): string {
  let size = Number(bytes);
  if (!Number.isFinite(size) || size < 0) return '';
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${size} B` : `${size.toFixed(2)} ${UNITS[unit]}`;
}

/** Asks the browser for one file. */
function pickFile(): Promise<File | undefined> {
  return new Promise((resolve) => {
    const input = document.createElement('input');
    input.type = 'file';
    input.addEventListener('change', () => resolve(input.files?.[0]));
    input.addEventListener('cancel', () => resolve(undefined));
    input.click();
  });
}

const linkCell = (row: Row) => (
  <a href={String(row.link ?? '')} target="_blank" rel="noreferrer">
    {String(row.link ?? '')}
  </a>
);

/** Spec §7 "Files": uploads are recorded by put-file; rows are only listed, downloaded and deleted (with the file). */
export const attachView: CrudView<typeof attach> = {
  resource: attach,
  dateRange: true,
  actions: { add: false, edit: false },
  fields: [
    { name: 'name', label: msg`附件名称`, search: true, width: 260 },
    { name: 'originalName', label: msg`附件原名`, search: true, width: 180 },
    { name: 'extension', label: msg`附件拓展名`, search: true, width: 100 },
    { name: 'attachSize', label: msg`附件大小`, cell: (row) => humanSize(row.attachSize), width: 100 },
    { name: 'link', label: msg`附件地址`, cell: linkCell, width: 280, span: 24 },
    { name: 'createTime', label: msg`上传时间`, width: 160 },
  ],
  toolbarActions: [
    {
      key: 'upload',
      label: msg`上传`,
      icon: 'upload',
      permission: 'upload',
      async run(context) {
        const file = await pickFile();
        if (!file) return;
        try {
          await putFile(file);
          toastSuccess(i18n._(msg`上传成功`));
          context.refresh();
        } catch {
          // the request layer has shown the failure
        }
      },
    },
  ],
  rowActions: [
    { key: 'download', label: msg`下载`, icon: 'download', permission: 'download', run: (row) => window.open(String(row.link), '_blank', 'noopener') },
  ],
};
