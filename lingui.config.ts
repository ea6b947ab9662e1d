import { defineConfig } from '@lingui/cli';

/** Chinese is the source language; English is the translation (catalogs in locales/). */
export default defineConfig({
  sourceLocale: 'zh',
  locales: ['zh', 'en'],
  // Test files use msg`` to build fixtures; those strings are not the console's.
  catalogs: [{ path: '<rootDir>/locales/{locale}', include: ['src', 'machines', 'streams'], exclude: ['**/*.test.ts', '**/*.test.tsx'] }],
  format: 'po',
});
