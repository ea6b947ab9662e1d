import { Card } from '@blueprintjs/core';
import { Trans } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { sessionActor } from '../../app/shell';

/** The home tab (首页). */
export default function WelcomePage() {
  const user = useSelector(sessionActor, (s) => s.context.user);
  return (
    <div className="vg-page">
      <Card>
        <h2>
          <Trans>欢迎使用 Vigil 结构健康监测平台</Trans>
        </h2>
        <p>
          <Trans>
            您好,{user?.nickName ?? ''}。请从左侧菜单进入各功能模块。
          </Trans>
        </p>
      </Card>
    </div>
  );
}
