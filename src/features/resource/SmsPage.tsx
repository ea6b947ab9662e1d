import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { type FormEvent, useMemo, useState } from 'react';
import { http } from '../../api/client';
import { crudCalls, type Row } from '../../crud/api';
import { CrudPage } from '../../crud/CrudPage';
import { sms } from '../../../resources/resource/sms';
import { toastSuccess } from '../../ui/toast';
import { smsView } from './smsView';

const sendPath = `${crudCalls(sms).base}/endpoint/send-message`;

/** 发送测试: sends through one config (its smsCode) to comma-separated phones with template params as JSON. */
function SendDialog({ config, onClose }: { config: Row; onClose(): void }) {
  const { t } = useLingui();
  const [phones, setPhones] = useState('');
  const [params, setParams] = useState('{}');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState('');

  async function send(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setFailure('');
    try {
      await http.post(sendPath, { json: { code: config.smsCode, phones, params } });
      toastSuccess(t`发送成功!`);
      onClose();
    } catch (error) {
      // The request layer has toasted the server's message; it stays in the dialog too.
      setFailure(error instanceof Error ? error.message : String(error));
      setBusy(false);
    }
  }

  return (
    <Dialog isOpen title={t`发送测试`} onClose={onClose} style={{ width: 600, maxWidth: '95vw' }} canOutsideClickClose={false}>
      <form onSubmit={(e) => void send(e)} className="vg-sms-send" noValidate>
        <DialogBody>
          <FormGroup label={t`资源编号`} labelFor="send-code">
            <InputGroup id="send-code" value={String(config.smsCode ?? '')} disabled />
          </FormGroup>
          <FormGroup label={t`手机号码`} labelFor="send-phones" helperText={t`多个号码用英文逗号分隔`}>
            <InputGroup id="send-phones" value={phones} onChange={(e) => setPhones(e.target.value)} />
          </FormGroup>
          <FormGroup label={t`模板参数 (JSON)`} labelFor="send-params">
            <TextArea id="send-params" fill rows={4} value={params} onChange={(e) => setParams(e.target.value)} />
          </FormGroup>
          {failure && <Callout intent="danger" className="vg-sms-failure">{failure}</Callout>}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t`取消`} onClick={onClose} />
              <Button type="submit" intent="primary" icon="send-message" loading={busy} text={t`发送`} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}

/** /resource/sms */
export default function SmsPage() {
  const [sending, setSending] = useState<Row>();
  const view = useMemo(() => smsView(setSending), []);
  return (
    <>
      <CrudPage view={view} />
      {sending && <SendDialog config={sending} onClose={() => setSending(undefined)} />}
    </>
  );
}
