import { Button, Menu, MenuItem, PopoverNext } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import type { Language } from '../../machines/preferences';
import { preferencesActor } from '../app/shell';

const LANGUAGES: ReadonlyArray<[Language, string]> = [
  ['zh', '中文'],
  ['en', 'English'],
];

/** Chinese or English; the current language is disabled. The page title follows the change. */
export function LanguageMenu() {
  const { t } = useLingui();
  const current = useSelector(preferencesActor, (s) => s.context.language);
  const menu = (
    <Menu>
      {LANGUAGES.map(([language, name]) => (
        <MenuItem
          key={language}
          text={name}
          disabled={language === current}
          onClick={() => preferencesActor.send({ type: 'prefs.language', language })}
        />
      ))}
    </Menu>
  );
  return (
    <PopoverNext content={menu} placement="bottom-end">
      <Button variant="minimal" icon="translate" aria-label={t`语言`} title={t`语言`} />
    </PopoverNext>
  );
}
