import { Button, ProgressBar } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import type { Resource } from '../../resources/define';
import type { DownloadProgress } from '../api/http';
import { saveFile } from '../ui/saveFile';
import { humanSize } from '../ui/size';
import { toastSuccess } from '../ui/toast';
import type { Params } from './api';
import { downloadList } from './exportList';
import type { CrudView } from './types';

export interface ExportButtonProps<R extends Resource> {
  view: CrudView<R>;
  /** The list's current parameters (filters, sorting), read when the button is pressed. */
  params(): Params;
}

/**
 * 导出: the list as the user filtered and sorted it, with the table's columns, as an xlsx file. While it downloads
 * the button gives way to a progress bar with the rows coming and the bytes received, and 取消.
 */
export function ExportButton<R extends Resource>({ view, params }: ExportButtonProps<R>) {
  const { t, i18n } = useLingui();
  const [progress, setProgress] = useState<DownloadProgress>();
  const running = useRef<AbortController>(undefined);

  async function start() {
    const controller = new AbortController();
    running.current = controller;
    setProgress({ bytes: 0 });
    // The page's title is the screen's name (docs/console-screens.md "Page titles").
    const name = document.title || view.resource.name;
    try {
      const file = await downloadList(view, params(), name, i18n, { signal: controller.signal, onProgress: setProgress });
      saveFile(file.blob, file.fileName ?? `${name}.xlsx`);
      toastSuccess(t`导出成功`);
    } catch {
      // refusals were toasted by the request layer; a cancel says nothing
    } finally {
      running.current = undefined;
      setProgress(undefined);
    }
  }

  if (!progress) return <Button icon="export" text={t`导出`} className="vg-export" onClick={() => void start()} />;
  const { rows } = progress;
  const size = humanSize(progress.bytes);
  return (
    <span className="vg-export-progress" role="status">
      <ProgressBar intent="primary" className="vg-export-bar" />
      <span className="vg-export-text">{rows === undefined ? t`正在准备导出…` : t`共 ${rows} 条,已接收 ${size}`}</span>
      <Button size="small" variant="minimal" icon="cross" text={t`取消`} className="vg-export-cancel" onClick={() => running.current?.abort()} />
    </span>
  );
}
