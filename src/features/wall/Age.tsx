import { useLingui } from '@lingui/react/macro';
import { ageOf } from './format';
import { useNow } from './wallHooks';

/** "3 秒前": how old a reading is, counting up every second. */
export function Age({ ts }: { ts: number | null }) {
  const { t } = useLingui();
  const now = useNow();
  if (ts === null) return <span className="vg-wall-age">—</span>;
  const { n, unit } = ageOf(ts, now);
  const text = unit === 'seconds' ? t`${n} 秒前` : unit === 'minutes' ? t`${n} 分钟前` : unit === 'hours' ? t`${n} 小时前` : t`${n} 天前`;
  return <span className="vg-wall-age">{text}</span>;
}
