import { site } from './config';

/** A saved-storage record (spec §3): what was stored, its type, where and when. */
interface StoreRecord<T> {
  dataType: string;
  content: T;
  type?: string;
  datetime: number;
}

const keyOf = (name: string) => `${site.key}-${name}`;
const areaOf = (type?: string): Storage => (type ? window.sessionStorage : window.localStorage);

/** Stores under the site key: session storage when a type is given, else local storage. */
export function setStore<T>(name: string, content: T, type?: string): void {
  const record: StoreRecord<T> = { dataType: typeof content, content, type, datetime: Date.now() };
  areaOf(type).setItem(keyOf(name), JSON.stringify(record));
}

export function getRecord<T>(name: string): StoreRecord<T> | undefined {
  const raw = window.sessionStorage.getItem(keyOf(name)) ?? window.localStorage.getItem(keyOf(name));
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as StoreRecord<T>;
  } catch {
    return undefined;
  }
}

export const getStore = <T>(name: string): T | undefined => getRecord<T>(name)?.content;

export function removeStore(name: string): void {
  window.sessionStorage.removeItem(keyOf(name));
  window.localStorage.removeItem(keyOf(name));
}

const ACCESS_COOKIE = `${site.key}-access-token`;
const REFRESH_COOKIE = `${site.key}-refresh-token`;

function readCookie(name: string): string | undefined {
  const entry = document.cookie.split('; ').find((part) => part.startsWith(`${name}=`));
  const value = entry ? decodeURIComponent(entry.slice(name.length + 1)) : '';
  return value || undefined;
}

function writeCookie(name: string, value: string | undefined): void {
  // biome-ignore lint/suspicious/noDocumentCookie: synchronous on purpose (cookieStore is async and not in every supported browser)
  document.cookie = value === undefined ? `${name}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT` : `${name}=${encodeURIComponent(value)}; path=/; SameSite=Lax`;
}

/** Tokens live in cookies (spec §9). */
export const tokenCookies = {
  access: () => readCookie(ACCESS_COOKIE),
  refresh: () => readCookie(REFRESH_COOKIE),
  set(access: string, refresh: string) {
    writeCookie(ACCESS_COOKIE, access);
    writeCookie(REFRESH_COOKIE, refresh);
  },
  clear() {
    writeCookie(ACCESS_COOKIE, undefined);
    writeCookie(REFRESH_COOKIE, undefined);
  },
};
