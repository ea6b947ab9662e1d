import { i18n, type Messages } from '@lingui/core';
import type { Language } from '../../machines/preferences';

/**
 * The console's strings come in two catalogues (lingui.config.ts): `entry`, loaded at start, holds what the browser
 * shows before anyone signs in; `console` holds the rest and loads with the first page that is not an entry page.
 */
type Catalogue = 'entry' | 'console';
type Load = () => Promise<{ messages: Messages }>;

const catalogues: Record<Catalogue, Record<Language, Load>> = {
  entry: { zh: () => import('../../locales/entry/zh.po'), en: () => import('../../locales/entry/en.po') },
  console: { zh: () => import('../../locales/console/zh.po'), en: () => import('../../locales/console/en.po') },
};

/** The catalogues this page has needed so far: a change of language loads each of them in the new language. */
const needed = new Set<Catalogue>(['entry']);
const loads = new Map<string, Promise<Messages>>();
let active: Language | undefined;

/** One catalogue in one language, fetched once (a failed fetch is tried again next time). */
function catalogue(name: Catalogue, language: Language): Promise<Messages> {
  const key = `${name}:${language}`;
  let load = loads.get(key);
  if (!load) {
    load = catalogues[name][language]().then(({ messages }) => messages);
    load.catch(() => loads.delete(key));
    loads.set(key, load);
  }
  return load;
}

/** Every needed catalogue in one language, merged; a catalogue needed while the others load is included. */
async function messagesIn(language: Language): Promise<Messages> {
  for (;;) {
    const names = [...needed];
    const parts = await Promise.all(names.map((name) => catalogue(name, language)));
    if (names.length === needed.size) return Object.assign({}, ...parts) as Messages;
  }
}

const same = (message: string) => message;
let inLanguage = same;

/**
 * A message of the server or of the resources' own rules (zod messages the form checks before sending, a refusal
 * that comes over the live socket) in the console's language: their catalogue (resources/messages-en.ts), loaded
 * with English only.
 */
export const inUserLanguage = (message: string): string => inLanguage(message);

/** Loads the needed catalogues in a language and activates it (the lingui vite plugin compiles the .po files). */
export async function activate(language: Language): Promise<void> {
  active = language;
  const [messages, rules] = await Promise.all([messagesIn(language), language === 'en' ? import('../../resources/messages') : undefined]);
  // A later change of language won the race.
  if (active !== language) return;
  inLanguage = rules ? (message) => rules.translate(message, 'en') : same;
  i18n.loadAndActivate({ locale: language, messages });
  document.documentElement.lang = language === 'zh' ? 'zh-CN' : 'en';
}

/**
 * The console's catalogue: a console page's chunk waits for it (lazyPage). In the language shown and, while a change of
 * language loads, in the one coming too: the page may render in either.
 */
export async function loadConsoleCatalogue(): Promise<void> {
  needed.add('console');
  const languages = new Set([i18n.locale as Language, active].filter((language): language is Language => !!language));
  await Promise.all(
    [...languages].map(async (language) => {
      const messages = await catalogue('console', language);
      if (language === i18n.locale || language === active) i18n.load(language, messages);
    }),
  );
}

export { i18n };
