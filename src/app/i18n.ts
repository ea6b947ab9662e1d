import { i18n, type Messages } from '@lingui/core';
import type { Language } from '../../machines/preferences';

const catalogs: Record<Language, () => Promise<{ messages: Messages }>> = {
  zh: () => import('../../locales/zh.po'),
  en: () => import('../../locales/en.po'),
};

/** Loads and activates a compiled catalog (the lingui vite plugin compiles the .po file at build). */
export async function activate(language: Language): Promise<void> {
  const { messages } = await catalogs[language]();
  i18n.loadAndActivate({ locale: language, messages });
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

export { i18n };
