import { Button, NonIdealState } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useLocation } from 'wouter';
import { navigate } from '../../app/navigation';

/** /404, /403 and /500; inside the layout, a screen the user's menus do not hold (`code` 403). */
export default function ErrorPage({ code: given }: { code?: '403' } = {}) {
  const { t } = useLingui();
  const [path] = useLocation();
  const pages: Record<string, [string, string]> = {
    '/403': ['403', t`抱歉,你无权访问该页面`],
    '/500': ['500', t`抱歉,服务器出错了`],
  };
  const [code, text] = pages[given ? `/${given}` : path] ?? ['404', t`抱歉,你访问的页面不存在`];
  return (
    <div className="vg-error-page">
      <NonIdealState
        icon="error"
        title={code}
        description={text}
        action={<Button intent="primary" text={t`返回首页`} onClick={() => navigate('/')} />}
      />
    </div>
  );
}
