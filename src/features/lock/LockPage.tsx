import { Button, Card, InputGroup } from '@blueprintjs/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { type FormEvent, useState } from 'react';
import { site } from '../../app/config';
import { lockActor, sessionActor } from '../../app/shell';

/** /lock: unlock with the lock password, or log out. */
export default function LockPage() {
  const { t } = useLingui();
  const user = useSelector(sessionActor, (s) => s.context.user);
  const wrong = useSelector(lockActor, (s) => s.context.wrongPassword);
  const [password, setPassword] = useState('');
  function unlock(event: FormEvent) {
    event.preventDefault();
    lockActor.send({ type: 'lock.unlock', password });
  }
  return (
    <div className="vg-lock">
      <Card className="vg-lock-card" elevation={3}>
        <img src={user?.avatar || site.logo} alt="" />
        <h3>{user?.nickName}</h3>
        <form onSubmit={unlock}>
          <InputGroup
            type="password"
            name="unlock"
            placeholder={t`请输入锁屏密码`}
            value={password}
            intent={wrong ? 'danger' : 'none'}
            onChange={(e) => setPassword(e.target.value)}
            rightElement={<Button type="submit" icon="unlock" variant="minimal" aria-label={t`解锁`} />}
          />
          {wrong && (
            <p role="alert" style={{ color: '#c23030' }}>
              <Trans>解锁密码错误,请重新输入</Trans>
            </p>
          )}
        </form>
        <Button variant="minimal" style={{ marginTop: 12 }} text={t`退出登录`} onClick={() => sessionActor.send({ type: 'session.logout' })} />
      </Card>
    </div>
  );
}
