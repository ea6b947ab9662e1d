import { defineConfig } from '@lingui/cli';

/**
 * What the browser needs before anyone signs in: the entry chunk (src/main.tsx and what it imports statically) and
 * the pages opened with `entryPage` (login, lock, errors). Its catalogue loads at start; the console's (every other
 * string) loads with the first page opened with `lazyPage`, so the login bundle does not carry the console's strings.
 * tests/unit/catalogs.test.ts checks that everything the entry imports is listed here.
 */
export const ENTRY_SOURCES = [
  'src/main.tsx',
  'src/app',
  'src/ui',
  'src/features/registry.ts',
  'src/features/login',
  'src/features/lock',
  'src/features/errors',
];

// Test files use msg`` to build fixtures; those strings are not the console's.
const tests = ['**/*.test.ts', '**/*.test.tsx'];

/** Chinese is the source language; English is the translation (catalogs in locales/<catalogue>/). */
export default defineConfig({
  sourceLocale: 'zh',
  locales: ['zh', 'en'],
  catalogs: [
    { path: '<rootDir>/locales/entry/{locale}', include: ENTRY_SOURCES.map((path) => `<rootDir>/${path}`), exclude: tests },
    {
      path: '<rootDir>/locales/console/{locale}',
      include: ['<rootDir>/src', '<rootDir>/machines', '<rootDir>/streams'],
      exclude: [...tests, ...ENTRY_SOURCES.map((path) => `<rootDir>/${path}`)],
    },
  ],
  format: 'po',
});
