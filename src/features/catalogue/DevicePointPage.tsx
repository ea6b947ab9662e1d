import { Button, Callout, Dialog, DialogBody, DialogFooter, FileInput, ProgressBar } from '@blueprintjs/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useMemo, useState } from 'react';
import { type Envelope, http } from '../../api/client';
import { RequestError } from '../../api/http';
import { CrudPage } from '../../crud/CrudPage';
import type { CrudView } from '../../crud/types';
import { RowTable } from '../../ui/RowTable';
import { toastSuccess, toastWarning } from '../../ui/toast';
import { devicePointView } from './catalogueViews';

interface RowError {
  row: number;
  message: string;
}

interface Imported {
  total: number;
  inserted: number;
  updated: number;
}

type Outcome = { kind: 'imported'; counts: Imported } | { kind: 'refused'; message: string; errors: RowError[] };

/**
 * The template's columns, as the server's point sheet reads them (server/modules/wit-xinde/point-sheet.ts HEADERS):
 * Chinese in either language, since they are what the file must say.
 */
export const SHEET_COLUMNS = ['设备编号', '点位标识', '点位名称', '单位', '因素项编号', '精度', '通道', '排序', '备注'] as const;

/** Saves the empty template: a UTF-8 CSV (with BOM, so Excel reads the Chinese headers) of the column row. */
function downloadTemplate(name: string) {
  const blob = new Blob([`\uFEFF${SHEET_COLUMNS.join(',')}\r\n`], { type: 'text/csv;charset=utf-8' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/**
 * POST devicepoint/upload: the counts, or a refused sheet — its rows' errors (400 with data [{row, message}]) or
 * what is wrong with the file as a whole (a missing column): both stay in the dialog, no passing toast.
 */
async function uploadSheet(file: File, onProgress: (sent: number, total: number) => void): Promise<Outcome> {
  const body = new FormData();
  body.append('file', file);
  try {
    const reply = await http.upload<Envelope<Imported>>('api/wit-xinde/devicepoint/upload', body, { onProgress, ownRefusals: true });
    return { kind: 'imported', counts: reply.data };
  } catch (error) {
    if (!(error instanceof RequestError) || error.code !== 400) throw error;
    const data = (error.body as { data?: unknown } | undefined)?.data;
    return { kind: 'refused', message: error.message, errors: Array.isArray(data) ? (data as RowError[]) : [] };
  }
}

/** 导入: pick a point sheet (.xlsx / .csv), send it, show what happened. */
function UploadDialog({ onClose, onImported }: { onClose(): void; onImported(): void }) {
  const { t } = useLingui();
  const [file, setFile] = useState<File>();
  // While it runs: the share of the sheet sent, then undefined while the server checks and imports it.
  const [busy, setBusy] = useState<{ fraction?: number }>();
  const [outcome, setOutcome] = useState<Outcome>();
  const percent = Math.round((busy?.fraction ?? 0) * 100);
  async function submit() {
    if (!file) return toastWarning(t`请选择要上传的文件`);
    setBusy({ fraction: 0 });
    setOutcome(undefined);
    try {
      const result = await uploadSheet(file, (sent, total) => setBusy({ fraction: total && sent < total ? sent / total : undefined }));
      setOutcome(result);
      if (result.kind === 'imported') {
        toastSuccess(t`导入成功`);
        onImported();
      }
    } catch {
      // the request layer has shown the failure
    } finally {
      setBusy(undefined);
    }
  }
  return (
    <Dialog isOpen title={t`导入设备点位`} onClose={onClose} style={{ width: 720, maxWidth: '95vw' }} className="vg-point-upload" canOutsideClickClose={false}>
      <DialogBody>
        <p>{t`第一行为列名:设备编号、点位标识、点位名称、单位、因素项编号、精度、通道、排序、备注(前三列必填)。有任何一行出错时不导入任何数据。`}</p>
        <p>
          <Button variant="minimal" icon="download" intent="primary" text={t`下载导入模板`} className="vg-upload-template" onClick={() => downloadTemplate(t`设备点位导入模板.csv`)} />
        </p>
        <FileInput fill text={file?.name ?? t`选择文件`} buttonText={t`浏览`}
          inputProps={{ id: 'point-sheet', accept: '.xlsx,.csv' }}
          onInputChange={(e) => { setFile((e.target as HTMLInputElement).files?.[0]); setOutcome(undefined); }} />
        {busy && (
          <div className="vg-import-running" role="status" style={{ marginTop: 12 }}>
            <ProgressBar intent="primary" value={busy.fraction} stripes={busy.fraction === undefined} />
            <p style={{ marginTop: 6 }}>{busy.fraction === undefined ? t`正在导入,请稍候…` : t`正在上传 ${percent}%`}</p>
          </div>
        )}
        {outcome?.kind === 'imported' && (
          <Callout intent="success" className="vg-upload-result" style={{ marginTop: 12 }}>
            {t`共 ${outcome.counts.total} 行:新增 ${outcome.counts.inserted} 个点位,更新 ${outcome.counts.updated} 个点位。`}
          </Callout>
        )}
        {outcome?.kind === 'refused' && outcome.errors.length === 0 && (
          <Callout intent="danger" className="vg-upload-problem" style={{ marginTop: 12 }}>{outcome.message}</Callout>
        )}
        {outcome?.kind === 'refused' && outcome.errors.length > 0 && (
          <div className="vg-upload-errors" style={{ marginTop: 12 }}>
            <Callout intent="danger">{t`点位表有 ${outcome.errors.length} 行错误,未导入任何数据。`}</Callout>
            <RowTable
              style={{ marginTop: 8 }}
              rows={outcome.errors}
              rowKey={(e) => `${e.row}-${e.message}`}
              columns={[
                { title: t`行号`, cell: (e) => e.row, headStyle: { width: 80 } },
                { title: t`错误信息`, cell: (e) => e.message },
              ]}
            />
          </div>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t`关闭`} onClick={onClose} />
            <Button intent="primary" icon="import" text={t`上传`} loading={!!busy} className="vg-upload-submit" onClick={() => void submit()} />
          </>
        }
      />
    </Dialog>
  );
}

/** /xinde/devicepoint — points of the devices, filtered by device; 导入 (device_point_upload) takes a point sheet. */
export default function DevicePointPage() {
  const [upload, setUpload] = useState<{ refresh(): void }>();
  const view = useMemo<CrudView<typeof devicePointView.resource>>(
    () => ({ ...devicePointView, toolbarActions: [{ key: 'upload', label: msg`导入`, icon: 'import', permission: 'upload', run: (context) => setUpload(context) }] }),
    [],
  );
  return (
    <>
      <CrudPage view={view} />
      {upload && <UploadDialog onClose={() => setUpload(undefined)} onImported={upload.refresh} />}
    </>
  );
}
