import { Alert, Button, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import * as auth from '../../api/auth';
import { isQuiet, RequestError } from '../../api/http';
import { registerGuest } from '../../api/user';
import { site } from '../../app/config';
import { sessionActor } from '../../app/shell';
import { toast } from '../../ui/toast';
import { needsRegistration, registrationProblem } from './registration';

/** 账号注册: a third-party login without a local account asks for one; an administrator approves it. */
export function RegisterDialog() {
  const { t, i18n } = useLingui();
  const user = useSelector(sessionActor, (s) => s.context.user);
  const [tenantResolved, setTenantResolved] = useState<string>();
  const [form, setForm] = useState({ tenantId: user?.tenantId ?? site.tenantId, name: user?.nickName ?? '', account: '', password: '', password2: '' });
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const open = !!user && needsRegistration(user.userId);

  useEffect(() => {
    if (!open) return;
    void auth.tenantInfo(window.location.hostname).then((info) => info?.tenantId && setTenantResolved(info.tenantId), () => undefined);
  }, [open]);

  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    const filled = { ...form, tenantId: tenantResolved ?? form.tenantId };
    const problem = registrationProblem(filled, i18n);
    if (problem) return toast(problem, 'warning');
    setBusy(true);
    try {
      const reply = await registerGuest({ tenantId: filled.tenantId, name: filled.name, account: filled.account, password: filled.password, oauthId: user?.oauthId ?? '' });
      if (reply.success) setDone(true);
      else toast(reply.msg || t`提交失败`);
    } catch (error) {
      // Other failures were already shown by the request layer.
      const shown = error instanceof RequestError && error.code !== 0 && !isQuiet(error.message);
      if (!shown) toast(t`提交失败`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <Dialog isOpen={open && !done} title={t`账号注册`} isCloseButtonShown={false} canEscapeKeyClose={false} canOutsideClickClose={false} className="vg-register-dialog" style={{ width: '20%' }}>
        <form onSubmit={(e) => void submit(e)}>
          <DialogBody>
            {!tenantResolved && (
              <FormGroup label={t`租户编号`} labelFor="reg-tenant">
                <InputGroup id="reg-tenant" {...field('tenantId')} />
              </FormGroup>
            )}
            <FormGroup label={t`用户姓名`} labelFor="reg-name">
              <InputGroup id="reg-name" {...field('name')} />
            </FormGroup>
            <FormGroup label={t`账号名称`} labelFor="reg-account">
              <InputGroup id="reg-account" {...field('account')} />
            </FormGroup>
            <FormGroup label={t`账号密码`} labelFor="reg-password">
              <InputGroup id="reg-password" type="password" {...field('password')} />
            </FormGroup>
            <FormGroup label={t`确认密码`} labelFor="reg-password2">
              <InputGroup id="reg-password2" type="password" {...field('password2')} />
            </FormGroup>
          </DialogBody>
          <DialogFooter actions={<Button type="submit" intent="primary" loading={busy} text={t`提交`} />} />
        </form>
      </Dialog>
      <Alert isOpen={done} confirmButtonText={t`确定`} icon="info-sign" onConfirm={() => sessionActor.send({ type: 'session.logout' })}>
        <p>{t`注册申请已提交,请耐心等待管理员通过!`}</p>
      </Alert>
    </>
  );
}
