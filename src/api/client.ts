import { site } from '../app/config';
import { i18n } from '../app/i18n';
import { tokenCookies } from '../app/storage';
import { createHttp } from './http';

/** Late-bound hooks: the shell wires logout and toasts once its actors exist. */
const hooks = {
  onUnauthorized: () => {},
  notify: (_message: string) => {},
};

export function bindHttp(bound: Partial<typeof hooks>): void {
  Object.assign(hooks, bound);
}

/** The console's one HTTP client. */
export const http = createHttp({
  prefixUrl: '/',
  clientId: site.clientId,
  clientSecret: site.clientSecret,
  tokenHeader: site.tokenHeader,
  token: () => tokenCookies.access(),
  onUnauthorized: () => hooks.onUnauthorized(),
  notify: (message) => hooks.notify(message),
  whitelist: site.statusWhiteList,
  // The catalog the console shows; Chinese until the first one is active.
  language: () => i18n.locale || 'zh',
});

/** The envelope of every BladeX call except the token call. */
export interface Envelope<T> {
  code: number;
  success: boolean;
  data: T;
  msg: string;
}
