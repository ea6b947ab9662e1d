import type { Tab } from '../../machines/tabs';
import { site } from './config';

export interface RouteMeta {
  /** false: reachable without a token. */
  isAuth?: boolean;
  /** false: does not become a tab. */
  isTab?: boolean;
  /** Query keys holding the page's view state (a range): kept in the tab's value, not making another tab. */
  viewQuery?: readonly string[];
  /**
   * A page outside the console (the wall screen): entered as it is, whoever is or is not signed in, never sent to
   * /login, /lock or a sign-out — it has credentials of its own. The shell's session and lock do not run there.
   */
  standalone?: boolean;
}

export interface GuardInput {
  path: string;
  query: Record<string, string>;
  meta: RouteMeta;
  /** The label the route would give its tab. */
  label: string;
  /** A token cookie exists. */
  hasToken: boolean;
  /** The session holds tokens (the token store is not empty). */
  hasSession: boolean;
  locked: boolean;
}

export type GuardDecision =
  | { kind: 'redirect'; to: string }
  | { kind: 'federatedLogout' }
  | { kind: 'openWindow'; url: string }
  | { kind: 'enter'; tab?: Tab };

const withQuery = (path: string, query: Record<string, string>) => {
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
};

/** The new window gets the page itself: with the target kept, it would open another window, and so on. */
const withoutTarget = ({ target: _target, ...rest }: Record<string, string>) => rest;

const withoutKeys = (query: Record<string, string>, keys: readonly string[]) => Object.fromEntries(Object.entries(query).filter(([key]) => !keys.includes(key)));

/** The navigation guard of spec §2, as a pure decision. */
export function guard(input: GuardInput): GuardDecision {
  if (input.meta.standalone) return { kind: 'enter' };
  if (!input.hasToken) return input.meta.isAuth === false ? { kind: 'enter' } : { kind: 'redirect', to: '/login' };
  if (input.locked && input.path !== site.lockPage) return { kind: 'redirect', to: site.lockPage };
  if (input.path === '/login') return { kind: 'redirect', to: '/' };
  if (!input.hasSession) return { kind: 'federatedLogout' };
  // A query target opens a new window; a query src overrides the path (iframe pages), a query name the label.
  if (input.query.target) return { kind: 'openWindow', url: input.query.src || withQuery(input.path, withoutTarget(input.query)) };
  const value = input.query.src || withQuery(input.path, input.query);
  const label = input.query.name || input.label;
  if (input.meta.isTab === false || !value || !label) return { kind: 'enter' };
  return {
    kind: 'enter',
    tab: {
      label,
      value,
      ...(input.meta.viewQuery ? { key: withQuery(input.path, withoutKeys(input.query, input.meta.viewQuery)) } : {}),
      query: input.query,
      meta: { i18n: input.query.i18n ?? input.path },
      params: {},
      group: [],
    },
  };
}
