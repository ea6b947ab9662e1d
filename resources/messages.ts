import { EN } from './messages-en';

/** The languages of the server's messages: Chinese is the source, English is translated (resources/messages-en.ts). */
export type Language = 'zh' | 'en';

/** The request's language from Accept-Language: its first tag, `en…` for English, anything else Chinese. */
export function languageOf(header: string | string[] | undefined): Language {
  const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'zh';
}

const PLACEHOLDER = /\{(\w+)\}/g;
/** Placeholders that hold a message of their own (translated in turn); every other one is data, kept as it is. */
const NESTED = new Set(['reason', 'what']);

interface Template {
  pattern: RegExp;
  names: string[];
  english: string;
  /** Characters of fixed text: the template with more is the more specific one and is tried first. */
  fixed: number;
}

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(chinese: string, english: string): Template {
  // split with a capturing group: fixed text at even indices, placeholder names at odd ones.
  const parts = chinese.split(PLACEHOLDER);
  const names = parts.filter((_, i) => i % 2 === 1);
  const source = parts.map((part, i) => (i % 2 ? '(.+?)' : literal(part))).join('');
  return { pattern: new RegExp(`^${source}$`, 's'), names, english, fixed: chinese.replace(PLACEHOLDER, '').length };
}

const TEMPLATES: readonly Template[] = Object.entries(EN)
  .filter(([chinese]) => chinese.match(PLACEHOLDER))
  .map(([chinese, english]) => compile(chinese, english))
  .sort((a, b) => b.fixed - a.fixed);

function fromTemplate(message: string): string | undefined {
  for (const { pattern, names, english } of TEMPLATES) {
    const match = pattern.exec(message);
    if (!match) continue;
    const values = new Map(names.map((name, i) => [name, NESTED.has(name) ? toEnglish(match[i + 1]) : match[i + 1]]));
    return english.replace(PLACEHOLDER, (whole, name: string) => values.get(name) ?? whole);
  }
  return undefined;
}

/**
 * A message in English. The messages the server joins go part by part: `a; b` (zod's issues, a sheet's rows) first,
 * then a template filled in, then `head: rest` (`参数校验失败: …`, `name: 请输入…`); a head that is no message (a field
 * path, a code) stays. Anything unknown, data above all, comes back unchanged.
 */
function toEnglish(message: string): string {
  const exact = EN[message];
  if (exact !== undefined) return exact;
  if (message.includes('; ')) return message.split('; ').map(toEnglish).join('; ');
  const filled = fromTemplate(message);
  if (filled !== undefined) return filled;
  const colon = message.indexOf(': ');
  if (colon > 0) {
    const head = message.slice(0, colon);
    return `${EN[head] ?? head}: ${toEnglish(message.slice(colon + 2))}`;
  }
  return message;
}

/** The message in the request's language. */
export function translate(message: string, language: Language): string {
  return language === 'en' ? toEnglish(message) : message;
}
