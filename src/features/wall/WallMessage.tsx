import { useLingui } from '@lingui/react/macro';
import type { Refusal } from '../../../machines/screen';
import { inUserLanguage } from '../../app/i18n';

/** Why the screen shows no data: the link refused (revoked, expired, invalid), incomplete, or still connecting. */
export type WallMessageKind = Refusal | 'missing' | 'connecting' | 'broken';

/**
 * A full-screen message instead of the panels. A refused link is checked again every minute (machines/screen.ts),
 * so the screen comes back by itself once an administrator fixes the link; it never asks anyone to sign in.
 */
export function WallMessage({ kind, detail }: { kind: WallMessageKind; detail?: string }) {
  const { t } = useLingui();
  const titles: Record<WallMessageKind, string> = {
    revoked: t`此大屏链接已被撤销`,
    expired: t`此大屏链接已过期`,
    invalid: t`大屏链接无效`,
    missing: t`大屏链接不完整`,
    connecting: t`正在连接服务器…`,
    broken: t`大屏出现错误，正在恢复…`,
  };
  const notes: Record<WallMessageKind, string> = {
    revoked: t`请联系管理员在「监测大屏」中新建链接。本页面每分钟自动重新检查。`,
    expired: t`请联系管理员延长有效期或新建链接。本页面每分钟自动重新检查。`,
    invalid: t`请核对链接，或联系管理员在「监测大屏」中重新生成。本页面每分钟自动重新检查。`,
    missing: t`请使用管理员提供的完整链接（包括 # 之后的部分）。`,
    connecting: t`连接后自动显示监测数据。`,
    broken: t`稍后自动重新显示。`,
  };
  const refused = kind === 'revoked' || kind === 'expired' || kind === 'invalid' || kind === 'missing';
  return (
    <div className={`vg-wall-message is-${kind}`} role={refused ? 'alert' : 'status'}>
      <div className="vg-wall-message-title">{titles[kind]}</div>
      <div className="vg-wall-message-note">{notes[kind]}</div>
      {detail && <div className="vg-wall-message-detail">{inUserLanguage(detail)}</div>}
    </div>
  );
}
