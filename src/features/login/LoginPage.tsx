import { Button, Card, FormGroup, InputGroup } from '@blueprintjs/core';
import type { I18n, MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { TokenResponse } from '../../../machines/session';
import * as auth from '../../api/auth';
import { site } from '../../app/config';
import { sessionActor } from '../../app/shell';
import { setStore } from '../../app/storage';
import { toast } from '../../ui/toast';
import { LanguageMenu } from '../../ui/LanguageMenu';

interface Captcha {
  key: string;
  image: string;
}

/** error_code of the refusals the console words itself (server/modules/blade-auth/login.ts LOGIN_CODES). */
const LOCKED = 423;
const CAPTCHA_REQUIRED = 428;
const THROTTLED = 429;

const REFUSALS: Record<number, (refusal: TokenResponse) => MessageDescriptor> = {
  [LOCKED]: () => msg`登录失败次数过多,此地址已暂时不能登录该账号,请稍后再试或联系管理员解封`,
  [CAPTCHA_REQUIRED]: () => msg`为保护账号安全,请输入验证码后再登录`,
  [THROTTLED]: (refusal) => {
    const seconds = Number(refusal.retry_after ?? 60);
    return msg`登录过于频繁,请 ${seconds} 秒后再试`;
  },
};

/** What a refused sign-in tells the person: the console's own words for the sign-in rules, else the server's. */
function refusalMessage(i18n: I18n, refusal: TokenResponse | undefined, fallback: string): string {
  const known = refusal ? REFUSALS[Number(refusal.error_code)] : undefined;
  return known && refusal ? i18n._(known(refusal)) : fallback;
}

/**
 * The host's tenant (tenant field hidden, tenant background) and a captcha: from the start in captcha mode, else
 * once a refusal says the account needs one (docs/sign-in.md).
 */
function useTenantAndCaptcha() {
  const [tenant, setTenant] = useState<auth.TenantInfo | null>(null);
  const [captcha, setCaptcha] = useState<Captcha>();
  const [captchaShown, setCaptchaShown] = useState<boolean>(site.captchaMode);
  const refreshCaptcha = () => void auth.captcha().then(setCaptcha, () => undefined);
  useEffect(() => {
    void auth.tenantInfo(window.location.hostname).then((info) => setTenant(info?.tenantId ? info : null), () => undefined);
    if (site.captchaMode) refreshCaptcha();
  }, []);
  const showCaptcha = () => setCaptchaShown(true);
  return { tenant, captcha, captchaShown, showCaptcha, refreshCaptcha };
}

export default function LoginPage() {
  const { t, i18n } = useLingui();
  const { tenant, captcha, captchaShown, showCaptcha, refreshCaptcha } = useTenantAndCaptcha();
  const busy = useSelector(sessionActor, (s) => s.matches('loggingIn'));
  const [form, setForm] = useState({ tenantId: site.tenantId, username: '', password: '', code: '' });
  const [problem, setProblem] = useState('');
  // The subscription below is made once; it reads whether the captcha is shown through this ref.
  const captchaShownRef = useRef(captchaShown);
  captchaShownRef.current = captchaShown;
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (e: { target: { value: string } }) => setForm((f) => ({ ...f, [name]: e.target.value })),
  });

  useEffect(() => {
    let previous = sessionActor.getSnapshot();
    return sessionActor.subscribe((snapshot) => {
      // A refused login answers 200 with error_description: show it, store nothing. A captcha is used up by any
      // attempt, so a shown one is replaced; a refusal that asks for one shows it from now on.
      if (previous.matches('loggingIn') && snapshot.matches('loggedOut') && snapshot.context.error) {
        const { refusal, error } = snapshot.context;
        const message = refusalMessage(i18n, refusal, error);
        toast(message);
        setProblem(message);
        if (refusal?.captcha_required) showCaptcha();
        if (refusal?.captcha_required || captchaShownRef.current) {
          refreshCaptcha();
          setForm((f) => ({ ...f, code: '' }));
        }
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
    if (captchaShown && !form.code.trim()) return setProblem(t`请输入验证码`);
    setProblem('');
    // With switch mode on, the console asks for the dept/role right after login.
    if (site.switchMode) setStore('chooseRole', true, 'session');
    sessionActor.send({
      type: 'session.login',
      credentials: {
        tenantId: site.tenantMode ? tenantId : site.tenantId,
        username: form.username.trim(),
        password: form.password,
        captcha: captchaShown && captcha ? { key: captcha.key, code: form.code.trim() } : undefined,
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
          {captchaShown && (
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
