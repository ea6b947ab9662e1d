import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { attach } from '../../../resources/resource/attach';
import { putFile } from '../../api/resource';
import type { Row } from '../../crud/api';
import type { CrudView } from '../../crud/types';
import { progressToast } from '../../ui/progressToast';
import { humanSize } from '../../ui/size';
import { toastSuccess } from '../../ui/toast';

export { humanSize };

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
        const progress = progressToast('attach-upload');
        const total = humanSize(file.size);
        const name = file.name;
        progress.update(i18n._(msg`正在上传 ${name}`), 0);
        try {
          await putFile(file, (sent, size) => {
            const done = humanSize(sent);
            // Everything sent: the server still stores the file.
            if (size && sent >= size) progress.update(i18n._(msg`正在保存 ${name}`));
            else progress.update(i18n._(msg`正在上传 ${name}:${done} / ${total}`), size ? sent / size : undefined);
          });
          toastSuccess(i18n._(msg`上传成功`));
          context.refresh();
        } catch {
          // the request layer has shown the failure
        } finally {
          progress.close();
        }
      },
    },
  ],
  rowActions: [
    { key: 'download', label: msg`下载`, icon: 'download', permission: 'download', run: (row) => window.open(String(row.link), '_blank', 'noopener') },
  ],
};
