import { navigate as browserNavigate } from 'wouter/use-browser-location';
import { iframePath, isIframe } from './menu';

/** Client-side navigation outside React (machines' actions, the request layer). */
export function navigate(to: string, replace = false): void {
  browserNavigate(to, { replace });
}

/** The route of a tab: tabs of iframe pages hold their external address (the query src overrides the path). */
export function routeOfTab(value: string, label: string): string {
  return isIframe(value) && !value.startsWith('/myiframe/') ? iframePath(value, label) : value;
}
