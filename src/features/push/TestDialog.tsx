import { Button, Callout, Dialog, DialogBody, DialogFooter, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { type Envelope, http } from '../../api/client';
import type { Row } from '../../crud/api';

/** What subtable/testMQTT answers (server/push/forwarder.ts TestResult). */
interface TestResult {
  success: boolean;
  message: string;
  target: string;
  httpStatus: number | null;
  durationMs: number;
}

/** 测试连接: connects to a saved target, sends a test message and shows what happened. */
export function TestDialog({ row, onClose }: { row: Row; onClose(): void }) {
  const { t } = useLingui();
  const [result, setResult] = useState<TestResult>();
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    http
      .post<Envelope<TestResult>>('api/wit-xinde/subtable/testMQTT', { json: { id: row.id } })
      .then((r) => live && setResult(r.data))
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
    };
  }, [row.id]);

  return (
    <Dialog isOpen title={t`测试连接`} onClose={onClose} style={{ width: 560, maxWidth: '95vw' }} className="vg-push-test-dialog">
      <DialogBody>
        <p>{String(row.name ?? '')}</p>
        {!result && !failed && <Spinner size={24} />}
        {result && (
          <Callout intent={result.success ? 'success' : 'danger'} title={result.success ? t`连接成功` : t`连接失败`} className="vg-push-test-result">
            <p>{result.message}</p>
            <p>{t`目标: ${result.target}`}</p>
            <p>{t`耗时: ${result.durationMs} 毫秒`}{result.httpStatus ? ` · HTTP ${result.httpStatus}` : ''}</p>
          </Callout>
        )}
      </DialogBody>
      <DialogFooter actions={<Button text={t`关闭`} onClick={onClose} />} />
    </Dialog>
  );
}
