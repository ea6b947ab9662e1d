import { i18n, type Messages } from '@lingui/core';
import type { Language } from '../../machines/preferences';

const catalogs: Record<Language, () => Promise<{ messages: Messages }>> = {
  zh: () => import('../../locales/zh.po'),
  en: () => import('../../locales/en.po'),
};

const same = (message: string) => message;
let inLanguage = same;

/**
 * A message of the server or of the resources' own rules (zod messages the form checks before sending, a refusal
 * that comes over the live socket) in the console's language: their catalogue (resources/messages-en.ts), loaded
 * with English only.
 */
export const inUserLanguage = (message: string): string => inLanguage(message);

/** Loads and activates a compiled catalog (the lingui vite plugin compiles the .po file at build). */
export async function activate(language: Language): Promise<void> {
  const [{ messages }, rules] = await Promise.all([catalogs[language](), language === 'en' ? import('../../resources/messages') : undefined]);
  inLanguage = rules ? (message) => rules.translate(message, 'en') : same;
  i18n.loadAndActivate({ locale: language, messages });
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

export { i18n };
