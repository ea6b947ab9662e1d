import { AnchorButton, Button, Callout, ControlGroup, Dialog, DialogBody, DialogFooter, InputGroup } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useRef, useState } from 'react';
import { toastSuccess, toastWarning } from '../../ui/toast';
import { wallAddress } from './api';

/** Copies text: the clipboard API where the page may use it (https, localhost), else the selected field's text. */
async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    field?.select();
    return document.execCommand('copy');
  }
}

/**
 * A link's secret, the one time it is shown (after it was made or made anew): the whole address of its wall screen,
 * to copy or open. The server keeps only its hash, so closing the dialog loses it for good.
 */
export function SecretDialog({ name, secret, onClose }: { name: string; secret: string; onClose(): void }) {
  const { t } = useLingui();
  const address = wallAddress(secret);
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  async function copy() {
    if (await copyText(address, field.current)) {
      setCopied(true);
      toastSuccess(t`已复制`);
    } else toastWarning(t`无法自动复制，请手动复制链接`);
  }
  return (
    <Dialog isOpen title={t`大屏链接: ${name}`} onClose={onClose} style={{ width: 640, maxWidth: '95vw' }} className="vg-link-secret" canOutsideClickClose={false}>
      <DialogBody>
        <Callout intent="warning" icon="warning-sign">
          {t`链接只显示这一次。关闭后无法再查看，请立即复制并妥善保存；遗失后只能重新生成。`}
        </Callout>
        <ControlGroup className="vg-link-address-group">
          <InputGroup fill inputRef={field} readOnly value={address} className="vg-link-address" aria-label={t`大屏链接`} onFocus={(e) => e.currentTarget.select()} />
          <Button icon="clipboard" text={copied ? t`已复制` : t`复制链接`} className="vg-link-copy" onClick={() => void copy()} />
        </ControlGroup>
        <AnchorButton icon="fullscreen" intent="primary" size="large" text={t`打开大屏`} className="vg-link-open" href={address} target="_blank" rel="noopener noreferrer" />
      </DialogBody>
      <DialogFooter actions={<Button text={t`关闭`} onClick={onClose} />} />
    </Dialog>
  );
}
