import { createContext } from 'react';

/**
 * The URL of the page a layout route shows, for the list that follows it (docs/console-screens.md "Lists from a
 * link"): the first list the page renders takes its filters from the query and writes them back as they change.
 * Lists opened later in the page's dialogs (a dictionary's items, a point's thresholds) find the claim taken.
 */
export interface RouteQuery {
  path: string;
  query: Readonly<Record<string, string>>;
  /** The id of the list following the URL, once one has claimed it. */
  claim: { owner?: string };
}

export const RouteQueryContext = createContext<RouteQuery | undefined>(undefined);
