import { FormGroup, InputGroup, TextArea } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { RequestError } from '../../api/http';
import { toastSuccess } from '../../ui/toast';
import { startProcess } from './api';
import { leaveFor } from './processPage';
import { ProcessForm } from './ProcessForm';

/**
 * The form of a process that has no business form of the console's (/work/process/process/form/:processDefinitionId):
 * a title (the process's name and the applicant when empty) and a remark, kept as the variable `remark`.
 */
export function GeneralForm({ processDefinitionId }: { processDefinitionId: string }) {
  const { t } = useLingui();
  const [title, setTitle] = useState('');
  const [remark, setRemark] = useState('');
  const [refusal, setRefusal] = useState<string>();
  const [sending, setSending] = useState(false);

  const submit = async () => {
    if (sending) return;
    setSending(true);
    setRefusal(undefined);
    try {
      await startProcess(processDefinitionId, title.trim(), remark.trim() ? { remark: remark.trim() } : {});
      toastSuccess(t`提交成功`);
      leaveFor('/work/send');
    } catch (error) {
      setSending(false);
      if (error instanceof RequestError && error.code === 400) setRefusal(error.message);
    }
  };

  return (
    <ProcessForm refusal={refusal} sending={sending} submitClass="vg-process-submit" onSubmit={() => void submit()}>
      <FormGroup label={t`标题`} labelFor="field-title" helperText={t`不填则为流程名称和发起人`}>
        <InputGroup id="field-title" maxLength={255} value={title} onChange={(e) => setTitle(e.target.value)} />
      </FormGroup>
      <FormGroup label={t`说明`} labelFor="field-remark">
        <TextArea id="field-remark" fill rows={4} maxLength={2000} value={remark} onChange={(e) => setRemark(e.target.value)} />
      </FormGroup>
    </ProcessForm>
  );
}
