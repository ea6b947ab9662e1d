import { Button, Card, FormGroup, InputGroup } from '@blueprintjs/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useState } from 'react';
import * as auth from '../../api/auth';
import { site } from '../../app/config';
import { sessionActor } from '../../app/shell';
import { setStore } from '../../app/storage';
import { toast } from '../../ui/toast';
import { LanguageMenu } from '../shell/LanguageMenu';

interface Captcha {
  key: string;
  image: string;
}

/** The host's tenant (tenant field hidden, tenant background) and, in captcha mode, a fresh captcha. */
function useTenantAndCaptcha() {
  const [tenant, setTenant] = useState<auth.TenantInfo | null>(null);
  const [captcha, setCaptcha] = useState<Captcha>();
  const refreshCaptcha = () => void auth.captcha().then(setCaptcha, () => undefined);
  useEffect(() => {
    void auth.tenantInfo(window.location.hostname).then((info) => setTenant(info?.tenantId ? info : null), () => undefined);
    if (site.captchaMode) refreshCaptcha();
  }, []);
  return { tenant, captcha, refreshCaptcha };
}

export default function LoginPage() {
  const { t } = useLingui();
  const { tenant, captcha, refreshCaptcha } = useTenantAndCaptcha();
  const busy = useSelector(sessionActor, (s) => s.matches('loggingIn'));
  const [form, setForm] = useState({ tenantId: site.tenantId, username: '', password: '', code: '' });
  const [problem, setProblem] = useState('');
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });

  useEffect(() => {
    let previous = sessionActor.getSnapshot();
    return sessionActor.subscribe((snapshot) => {
      // A refused login answers 200 with error_description: show it, store nothing.
      if (previous.matches('loggingIn') && snapshot.matches('loggedOut') && snapshot.context.error) {
        toast(snapshot.context.error);
        setProblem(snapshot.context.error);
        if (site.captchaMode) refreshCaptcha();
      }
      previous = snapshot;
    }).unsubscribe;
    // Subscribed once for the life of the page.
  }, []);

  // The callback of a third-party sign-in: /login?source=…&code=…&state=…
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const source = query.get('source');
    const code = query.get('code');
    if (!source || !code) return;
    sessionActor.send({
      type: 'session.login',
      credentials: {
        tenantId: query.get('tenantId') ?? site.tenantId,
        username: '',
        password: '',
        social: { source, code, state: query.get('state') ?? undefined },
      },
    });
  }, []);

  function submit(event: FormEvent) {
    event.preventDefault();
    const tenantId = tenant?.tenantId ?? form.tenantId.trim();
    if (site.tenantMode && !tenantId) return setProblem(t`请输入租户ID`);
    if (!form.username.trim()) return setProblem(t`请输入用户名`);
    if (!form.password) return setProblem(t`请输入密码`);
    if (site.captchaMode && !form.code.trim()) return setProblem(t`请输入验证码`);
    setProblem('');
    // With switch mode on, the console asks for the dept/role right after login.
    if (site.switchMode) setStore('chooseRole', true, 'session');
    sessionActor.send({
      type: 'session.login',
      credentials: {
        tenantId: site.tenantMode ? tenantId : site.tenantId,
        username: form.username.trim(),
        password: form.password,
        captcha: site.captchaMode && captcha ? { key: captcha.key, code: form.code.trim() } : undefined,
      },
    });
  }

  const background = tenant?.backgroundUrl ? { backgroundImage: `url(${tenant.backgroundUrl})` } : undefined;
  return (
    <div className="vg-login" style={background}>
      <Card className="vg-login-card" elevation={3}>
        <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
          <h2>
            <Trans>登录</Trans> · Vigil
          </h2>
          <LanguageMenu />
        </div>
        <form onSubmit={submit} noValidate>
          {site.tenantMode && !tenant && (
            <FormGroup label={t`租户ID`} labelFor="tenantId">
              <InputGroup id="tenantId" name="tenantId" leftIcon="office" placeholder={t`请输入租户ID`} {...field('tenantId')} />
            </FormGroup>
          )}
          <FormGroup label={t`账号`} labelFor="username">
            <InputGroup id="username" name="username" leftIcon="person" placeholder={t`请输入用户名`} autoComplete="username" {...field('username')} />
          </FormGroup>
          <FormGroup label={t`密码`} labelFor="password">
            <InputGroup id="password" name="password" type="password" leftIcon="lock" placeholder={t`请输入密码`} autoComplete="current-password" {...field('password')} />
          </FormGroup>
          {site.captchaMode && (
            <FormGroup label={t`验证码`} labelFor="code">
              <div className="vg-captcha">
                <InputGroup id="code" name="code" placeholder={t`请输入验证码`} {...field('code')} />
                {captcha && <img src={captcha.image} alt={t`验证码`} title={t`看不清?换一张`} onClick={refreshCaptcha} />}
              </div>
            </FormGroup>
          )}
          {problem && (
            <p className="bp6-text-muted" role="alert" style={{ color: '#c23030' }}>
              {problem}
            </p>
          )}
          <Button type="submit" intent="primary" fill loading={busy} text={t`登录`} />
        </form>
      </Card>
    </div>
  );
}
