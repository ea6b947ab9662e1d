import { Button, ButtonGroup, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, Radio, RadioGroup, Spinner } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useEffect, useMemo, useState } from 'react';
import { formatDateTime } from '../../../resources/datetime';
import { type Envelope, http } from '../../api/client';
import type { Row } from '../../crud/api';
import { CheckTree } from '../../crud/CheckTree';
import type { TreeOption } from '../../crud/types';
import { toastSuccess } from '../../ui/toast';

/** What pushDataByDev / pushDataByDev2 answer (server/modules/wit-xinde/push-calls.ts PushReply). */
interface PushReply {
  devices: number;
  readings: number;
  pushed: number;
  messages: number;
  failed: number;
  error?: string;
}

type Mode = 'range' | 'latest';

/** A datetime-local value (yyyy-MM-ddTHH:mm:ss) of an instant, in local time. */
const localValue = (ms: number) => formatDateTime(new Date(ms)).replace(' ', 'T');
/** The contract's date format from a datetime-local value. */
const wireValue = (local: string) => {
  const text = local.replace('T', ' ');
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(text) ? `${text}:00` : text;
};

/**
 * 推送 of a binding: the devices it pushes (getDevList), then either their stored history in a time range
 * (pushDataByDev, at most 31 days) or their latest values now (pushDataByDev2). Shows the counts the server answers.
 */
export function PushDialog({ row, onClose, onPushed }: { row: Row; onClose(): void; onPushed(): void }) {
  const { t } = useLingui();
  const [devices, setDevices] = useState<Row[]>();
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [mode, setMode] = useState<Mode>('range');
  const [start, setStart] = useState(() => localValue(Date.now() - 86_400_000));
  const [end, setEnd] = useState(() => localValue(Date.now()));
  const [busy, setBusy] = useState(false);
  const [reply, setReply] = useState<PushReply>();

  useEffect(() => {
    let live = true;
    http
      .post<Envelope<Row[]>>('api/wit-xinde/tenantproject/getDevList', { json: { ids: row.id } })
      .then((r) => {
        if (!live) return;
        setDevices(r.data);
        setChecked(new Set(r.data.map((d) => String(d.id))));
      })
      .catch(() => live && setDevices([]));
    return () => {
      live = false;
    };
  }, [row.id]);

  const nodes = useMemo<TreeOption[]>(() => (devices ?? []).map((d) => ({ id: String(d.id), title: `${String(d.name ?? '')} (${String(d.code ?? '')})` })), [devices]);

  async function push() {
    setBusy(true);
    setReply(undefined);
    try {
      const body = { mqttParamId: row.mqttParamId, deviceIds: [...checked], ...(mode === 'range' ? { startTime: wireValue(start), endTime: wireValue(end) } : {}) };
      const { data } = await http.post<Envelope<PushReply>>(`api/wit-xinde/tenantproject/${mode === 'range' ? 'pushDataByDev' : 'pushDataByDev2'}`, { json: body });
      setReply(data);
      if (!data.error) toastSuccess(t`推送完成`);
      onPushed();
    } catch {
      // the request layer has shown the failure
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog isOpen title={t`推送 - ${String(row.projectName ?? '')}`} onClose={onClose} style={{ width: 640, maxWidth: '95vw' }} className="vg-push-dialog" canOutsideClickClose={false}>
      <DialogBody>
        <p>{t`推送目标: ${String(row.paramName ?? '')}`}</p>
        <RadioGroup inline selectedValue={mode} onChange={(e) => setMode(e.currentTarget.value as Mode)}>
          <Radio value="range" label={t`补推历史数据`} className="vg-push-range" />
          <Radio value="latest" label={t`推送最新值`} className="vg-push-latest" />
        </RadioGroup>
        {mode === 'range' && (
          <FormGroup label={t`时间范围(最长 31 天)`} labelFor="push-start">
            <div className="vg-push-range-inputs" style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
              <InputGroup id="push-start" type="datetime-local" step={1} value={start} onChange={(e) => setStart(e.target.value)} />
              <span>-</span>
              <InputGroup id="push-end" type="datetime-local" step={1} value={end} onChange={(e) => setEnd(e.target.value)} />
            </div>
          </FormGroup>
        )}
        <FormGroup label={t`设备 (${checked.size}/${nodes.length})`}>
          <ButtonGroup variant="minimal" style={{ marginBottom: 4 }}>
            <Button size="small" text={t`全选`} onClick={() => setChecked(new Set(nodes.map((n) => n.id)))} />
            <Button size="small" text={t`全不选`} onClick={() => setChecked(new Set())} />
          </ButtonGroup>
          <div style={{ maxHeight: 260, overflow: 'auto' }}>{devices ? <CheckTree nodes={nodes} checked={checked} onChange={setChecked} /> : <Spinner size={20} />}</div>
        </FormGroup>
        {reply && (
          <Callout intent={reply.error ? 'warning' : 'success'} className="vg-push-result">
            <p>{t`读取 ${reply.readings} 条,已推送 ${reply.pushed} 条(${reply.messages} 条消息),未推送 ${reply.failed} 条`}</p>
            {reply.error && <p>{t`错误: ${reply.error}`}</p>}
          </Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text={t`关闭`} onClick={onClose} />
            <Button intent="primary" icon="send-message" text={t`推送`} loading={busy} disabled={checked.size === 0} className="vg-push-send" onClick={() => void push()} />
          </>
        }
      />
    </Dialog>
  );
}
