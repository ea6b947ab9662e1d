import { defineConfig } from '@lingui/cli';

/** Chinese is the source language; English is the translation (catalogs in locales/). */
export default defineConfig({
  sourceLocale: 'zh',
  locales: ['zh', 'en'],
  catalogs: [{ path: '<rootDir>/locales/{locale}', include: ['src', 'machines', 'streams'] }],
  format: 'po',
});
