import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, NumericInput, TextArea } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { PUSH_STATE } from '../../../resources/iot/data';
import { type Envelope, http } from '../../api/client';
import type { Row } from '../../crud/api';

/** A command's outcome as sendCommands answers it (server/modules/wit-xinde/commands.ts CommandResult). */
interface CommandResult {
  state: number;
  stateName: string;
  result?: unknown;
  error?: unknown;
}

const pretty = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value, null, 2));

/** 下发指令: a command name, its JSON parameters and how long to wait for the reply; shows the reply. */
export function CommandDialog({ kind, row, onClose }: { kind: 'device' | 'gateway'; row: Row; onClose(): void }) {
  const { t } = useLingui();
  const [command, setCommand] = useState('');
  const [params, setParams] = useState('{}');
  const [wait, setWait] = useState(5);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<CommandResult>();

  async function send() {
    if (!command.trim()) return setProblem(t`请输入指令名称`);
    try {
      const parsed: unknown = JSON.parse(params.trim() || '{}');
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return setProblem(t`指令参数应为 JSON 对象`);
    } catch {
      return setProblem(t`指令参数应为 JSON 对象`);
    }
    setProblem('');
    setBusy(true);
    setOutcome(undefined);
    try {
      const body = { [kind === 'device' ? 'deviceId' : 'gatewayId']: row.id, command: command.trim(), params: params.trim() || '{}', wait };
      const { data } = await http.post<Envelope<CommandResult>>(`api/wit-xinde/${kind}/sendCommands`, { json: body });
      setOutcome(data);
    } catch {
      // the request layer has shown the failure
    } finally {
      setBusy(false);
    }
  }

  const answered = outcome && (outcome.state === PUSH_STATE.replied || outcome.state === PUSH_STATE.failed);
  return (
    <Dialog isOpen title={t`下发指令`} onClose={onClose} style={{ width: 600, maxWidth: '95vw' }} className="vg-command-dialog" canOutsideClickClose={false}>
      <DialogBody>
        <p>{`${String(row.name ?? '')} (${String(row.code ?? '')})`}</p>
        <FormGroup label={t`指令名称`} labelFor="command-name" labelInfo="*" intent={problem ? 'danger' : 'none'} helperText={problem || undefined}>
          <InputGroup id="command-name" placeholder="reboot" value={command} onChange={(e) => setCommand(e.target.value)} />
        </FormGroup>
        <FormGroup label={t`指令参数(JSON)`} labelFor="command-params">
          <TextArea id="command-params" fill rows={5} value={params} onChange={(e) => setParams(e.target.value)} className="vg-mono" />
        </FormGroup>
        <FormGroup label={t`等待回复(秒)`} labelFor="command-wait">
          <NumericInput id="command-wait" min={0} max={30} value={wait} onValueChange={(n) => setWait(Number.isFinite(n) ? Math.min(30, Math.max(0, n)) : 0)} />
        </FormGroup>
        {outcome && (
          <Callout intent={outcome.state === PUSH_STATE.failed ? 'danger' : answered ? 'success' : 'primary'} className="vg-command-outcome" title={answered ? outcome.stateName : t`已发送,暂无回复`}>
            {answered && <pre className="vg-command-reply">{pretty(outcome.state === PUSH_STATE.failed ? outcome.error : outcome.result) ?? ''}</pre>}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter actions={<><Button text={t`关闭`} onClick={onClose} /><Button intent="primary" icon="send-message" text={t`发送`} loading={busy} className="vg-command-send" onClick={() => void send()} /></>} />
    </Dialog>
  );
}
