import { Button, Dialog, DialogBody, DialogFooter, NonIdealState } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { errorLogActor } from '../../app/shell';
import { confirm } from '../../ui/confirm';
import { RowTable } from '../../ui/RowTable';
import { toastSuccess } from '../../ui/toast';

/** The local error log (fullscreen): type, address, message, expandable stack, time; upload and clear. */
export function ErrorLogDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useLingui();
  const logs = useSelector(errorLogActor, (s) => s.context.logs);
  const uploading = useSelector(errorLogActor, (s) => s.matches('uploading'));

  async function upload() {
    if (!(await confirm(t`确定上传本地日志到服务器?`))) return;
    errorLogActor.send({ type: 'errorLog.upload' });
    onClose();
  }

  async function clear() {
    if (!(await confirm(t`确定清空本地日志记录?`))) return;
    errorLogActor.send({ type: 'errorLog.clear' });
    onClose();
    toastSuccess(t`清空成功!`);
  }

  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t`错误日志`} portalClassName="vg-error-log" style={{ width: '100vw', height: '100vh', margin: 0 }}>
      <DialogBody>
        {logs.length === 0 ? (
          <NonIdealState icon="tick-circle" title={t`暂无数据`} />
        ) : (
          <RowTable
            rows={logs}
            // entries have no id and the rows hold no state
            rowKey={(log, index) => `${log.time}-${index}`}
            columns={[
              { title: t`类型`, cell: (log) => log.type },
              { title: t`地址`, cell: (log) => log.url, style: { wordBreak: 'break-all' } },
              { title: t`内容`, cell: (log) => log.message },
              {
                title: t`错误堆栈`,
                cell: (log) => (
                  <details>
                    <summary>{t`展开`}</summary>
                    <pre>{log.stack}</pre>
                    {log.info && <pre>{log.info}</pre>}
                  </details>
                ),
              },
              { title: t`时间`, cell: (log) => log.time, style: { whiteSpace: 'nowrap' } },
            ]}
          />
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button intent="primary" icon="upload" loading={uploading} disabled={logs.length === 0} text={t`上传服务器`} onClick={() => void upload()} />
            <Button intent="danger" icon="trash" disabled={logs.length === 0} text={t`清空本地日志`} onClick={() => void clear()} />
          </>
        }
      />
    </Dialog>
  );
}
