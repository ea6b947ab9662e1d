import { Dialog, DialogBody } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { THEMES, type ThemeName } from '../../../machines/preferences';
import { preferencesActor } from '../../app/shell';

/** Swatches of each theme: sidebar and top bar colours. */
const SWATCHES: Record<ThemeName, [string, string]> = {
  default: ['#20222a', '#ffffff'],
  'theme-white': ['#ffffff', '#ffffff'],
  'theme-dark': ['#111418', '#1c2127'],
  'theme-star': ['#0b1a3a', '#122a5c'],
  'theme-bule': ['#0c4a9e', '#1767d2'],
  'theme-iview': ['#1c2438', '#ffffff'],
  'theme-vip': ['#2b2118', '#3a2c1c'],
  'theme-cool': ['#1e3c48', '#2a9d8f'],
  'theme-d2': ['#ebf1f6', '#ebf1f6'],
  'theme-hey': ['#ffffff', '#5c6bc0'],
  'theme-lte': ['#222d32', '#3c8dbc'],
};

export function ThemeDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const { t } = useLingui();
  const current = useSelector(preferencesActor, (s) => s.context.theme);
  const names: Record<ThemeName, string> = {
    default: t`默认主题`,
    'theme-white': t`白色主题`,
    'theme-dark': t`黑色主题`,
    'theme-star': t`星空主题`,
    'theme-bule': t`蓝色主题`,
    'theme-iview': t`iview主题`,
    'theme-vip': t`VIP主题`,
    'theme-cool': t`酷炫主题`,
    'theme-d2': t`D2主题`,
    'theme-hey': t`Hey主题`,
    'theme-lte': t`LTE主题`,
  };
  return (
    <Dialog isOpen={isOpen} onClose={onClose} title={t`选择主题`} style={{ width: 640 }}>
      <DialogBody>
        <div className="vg-themes" role="radiogroup">
          {THEMES.map((theme) => (
            <div
              key={theme}
              role="radio"
              aria-checked={theme === current}
              data-theme={theme}
              className={`vg-theme${theme === current ? ' active' : ''}`}
              onClick={() => preferencesActor.send({ type: 'prefs.theme', theme })}
            >
              <div className="vg-theme-swatch">
                <span style={{ width: '30%', background: SWATCHES[theme][0] }} />
                <span style={{ flex: 1, background: SWATCHES[theme][1], borderBottom: '1px solid #ddd' }} />
              </div>
              {names[theme]}
            </div>
          ))}
        </div>
      </DialogBody>
    </Dialog>
  );
}
