import { Button, Dialog, DialogBody, DialogFooter, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { errorLogActor } from '../../app/shell';
import { confirm } from '../../ui/confirm';
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
          <HTMLTable striped compact style={{ width: '100%' }}>
            <thead>
              <tr>
                <th>{t`类型`}</th>
                <th>{t`地址`}</th>
                <th>{t`内容`}</th>
                <th>{t`错误堆栈`}</th>
                <th>{t`时间`}</th>
              </tr>
            </thead>
            <tbody>
              {logs.map((log, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: entries have no id and the rows hold no state
                <tr key={`${log.time}-${index}`}>
                  <td>{log.type}</td>
                  <td style={{ wordBreak: 'break-all' }}>{log.url}</td>
                  <td>{log.message}</td>
                  <td>
                    <details>
                      <summary>{t`展开`}</summary>
                      <pre>{log.stack}</pre>
                      {log.info && <pre>{log.info}</pre>}
                    </details>
                  </td>
                  <td style={{ whiteSpace: 'nowrap' }}>{log.time}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
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
