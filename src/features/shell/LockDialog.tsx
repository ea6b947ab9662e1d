import { Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { type FormEvent, useState } from 'react';
import { lockActor } from '../../app/shell';

/** Sets the lock password; the lock machine then navigates to /lock. */
export function LockDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useLingui();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) return setError(t`锁屏密码不能为空`);
    lockActor.send({ type: 'lock.set', password });
    setPassword('');
    setError('');
    onClose();
  }
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t`设置锁屏密码`} style={{ width: 420 }}>
      <form onSubmit={submit}>
        <DialogBody>
          <FormGroup label={t`锁屏密码`} labelFor="lock-password" helperText={error} intent={error ? 'danger' : 'none'}>
            <InputGroup id="lock-password" name="lockPassword" type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoFocus />
          </FormGroup>
        </DialogBody>
        <DialogFooter actions={<Button type="submit" intent="primary" icon="lock" text={t`确定`} />} />
      </form>
    </Dialog>
  );
}
