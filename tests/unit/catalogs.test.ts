import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { messages as en } from '../../locales/en.po';
import { messages as zh } from '../../locales/zh.po';
import { SCREENS } from '../../src/features/registry';

/** msgids of a .po file whose msgstr is empty (the header excepted), i.e. untranslated strings. */
function untranslated(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const missing: string[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const id = /^msgid "(.*)"$/m.exec(block)?.[1];
    const str = /^msgstr "(.*)"$/m.exec(block)?.[1];
    if (id && str === '' && !/^msgstr "(.*)"\n"/m.test(block)) missing.push(id);
  }
  return missing;
}

describe('translation catalogs', () => {
  it('translate every string of the console into English', () => {
    expect(untranslated('locales/en.po')).toEqual([]);
  });

  it('have every screen title in both languages (a production build shows ids for missing ones)', () => {
    for (const screen of SCREENS) {
      expect(zh[screen.title.id], screen.path).toBeDefined();
      expect(en[screen.title.id], screen.path).toBeDefined();
    }
  });
});
