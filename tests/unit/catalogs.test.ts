import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENTRY_SOURCES } from '../../lingui.config';
import { messages as consoleEn } from '../../locales/console/en.po';
import { messages as consoleZh } from '../../locales/console/zh.po';
import { messages as entryEn } from '../../locales/entry/en.po';
import { messages as entryZh } from '../../locales/entry/zh.po';
import { SCREENS } from '../../src/features/registry';

const CATALOGUES = ['locales/entry/en.po', 'locales/console/en.po'];

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

/** Relative imports that stay in the bundle (type-only imports are erased; `import()` starts a chunk of its own). */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"](\.{1,2}\/[^'"]+)['"]/gm;

function resolveSource(from: string, specifier: string): string | undefined {
  const base = join(dirname(from), specifier);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')].find((path) => /\.tsx?$/.test(path) && existsSync(path));
}

/** Every source file a chunk starting at these files holds: the files they import statically, transitively. */
function staticGraph(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  for (const todo = [...entries]; todo.length > 0; ) {
    const file = todo.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const resolved = resolveSource(file, specifier);
      if (resolved) todo.push(resolved);
    }
  }
  return seen;
}

/** The pages opened with `entryPage(() => import('…'))`, found in the console's sources. */
function entryPages(): string[] {
  const pages: string[] = [];
  for (const entry of readdirSync('src', { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.tsx?$/.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/entryPage\(\(\) => import\('([^']+)'\)\)/g)) {
      const page = resolveSource(file, specifier);
      if (page) pages.push(page);
    }
  }
  return pages;
}

const inEntry = (file: string) => ENTRY_SOURCES.some((source) => file === source || file.startsWith(`${source}/`));

describe('translation catalogs', () => {
  it('translate every string of the console into English', () => {
    for (const path of CATALOGUES) expect(untranslated(path), path).toEqual([]);
  });

  it('have every screen title in both languages (a production build shows ids for missing ones)', () => {
    for (const screen of SCREENS) {
      expect(entryZh[screen.title.id], screen.path).toBeDefined();
      expect(entryEn[screen.title.id], screen.path).toBeDefined();
    }
  });

  it('hold every string of the entry chunk and the entry pages in the entry catalogue (they do not wait for the console)', () => {
    const pages = entryPages();
    expect(pages.map((page) => relative('.', page)).sort()).toEqual(['src/features/errors/ErrorPage.tsx', 'src/features/lock/LockPage.tsx', 'src/features/login/LoginPage.tsx']);
    const translated = [...staticGraph(['src/main.tsx', ...pages])].filter((file) => /from '@lingui\/(?:core|react)\/macro'/.test(readFileSync(file, 'utf8')));
    expect(translated.length).toBeGreaterThan(5);
    expect(translated.filter((file) => !inEntry(relative('.', file)))).toEqual([]);
  });

  it('keep the console catalogue out of the entry one (the login bundle does not carry it)', () => {
    const entryIds = new Set(Object.keys(entryZh));
    const consoleOnly = Object.keys(consoleZh).filter((id) => !entryIds.has(id));
    expect(consoleOnly.length).toBeGreaterThan(Object.keys(entryZh).length);
    expect(Object.keys(consoleEn).sort()).toEqual(Object.keys(consoleZh).sort());
  });
});
