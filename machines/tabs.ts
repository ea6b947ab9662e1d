import { assign, setup } from 'xstate';

export interface Tab {
  label: string;
  /** The path (with query) the tab opens. */
  value: string;
  /**
   * What makes the tab (default its value): a page keeping view state in its query (a chart's range) gives the
   * value without it, so changing that state updates the tab instead of opening another.
   */
  key?: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  meta?: { i18n?: string; isTab?: boolean; [key: string]: unknown };
  group?: string[];
}

export interface TabsContext {
  tabs: Tab[];
  active: string;
  home: Tab;
}

export interface TabsInput {
  home: Tab;
  tabs?: Tab[];
  active?: string;
}

export type TabsEvent =
  | { type: 'tabs.open'; tab: Tab }
  | { type: 'tabs.close'; value: string }
  | { type: 'tabs.closeOthers' }
  | { type: 'tabs.closeAll' }
  /** Back to the home tab alone without navigating (login, logout). */
  | { type: 'tabs.reset' };

const keyOf = (tab: Tab) => tab.key ?? tab.value;

/** The last remaining tab cannot close; otherwise every tab can, except the home tab. */
export function closable(tabs: readonly Tab[], tab: Tab, home: Tab): boolean {
  if (tabs.length <= 1) return false;
  return tab.value !== home.value;
}

/** Where to go after closing `value`: the previous tab, or the new first tab when the first one closed. */
export function nextAfterClose(tabs: readonly Tab[], value: string): Tab | undefined {
  const index = tabs.findIndex((tab) => tab.value === value);
  const rest = tabs.filter((tab) => tab.value !== value);
  return index > 0 ? rest[index - 1] : rest[0];
}

/**
 * The tab set of visited pages. Opening skips duplicates (by key, else value; a tab of the same key takes the new value); closing keeps at least one tab; close others
 * keeps the current and the home tab; close all goes back to the home tab.
 */
export const tabsMachine = setup({
  types: { context: {} as TabsContext, events: {} as TabsEvent, input: {} as TabsInput },
  actions: {
    /** Writes tabs and the active tab to storage; app-provided. */
    persist: () => {},
    navigate: (_, _path: string) => {},
  },
  guards: {
    canClose: ({ context }, value: string) => {
      const tab = context.tabs.find((t) => t.value === value);
      return !!tab && closable(context.tabs, tab, context.home);
    },
    closesActive: ({ context }, value: string) => context.active === value,
  },
}).createMachine({
  id: 'tabs',
  context: ({ input }) => ({
    home: input.home,
    tabs: input.tabs?.length ? input.tabs : [input.home],
    active: input.active ?? input.home.value,
  }),
  on: {
    'tabs.open': {
      actions: [
        assign(({ context, event }) => ({
          tabs: context.tabs.some((t) => keyOf(t) === keyOf(event.tab)) ? context.tabs.map((t) => (keyOf(t) === keyOf(event.tab) ? event.tab : t)) : [...context.tabs, event.tab],
          active: event.tab.value,
        })),
        'persist',
      ],
    },
    'tabs.close': [
      {
        guard: ({ context, event }) =>
          context.active === event.value && closable(context.tabs, context.tabs.find((t) => t.value === event.value) ?? context.home, context.home),
        actions: [
          assign(({ context, event }) => ({
            active: nextAfterClose(context.tabs, event.value)?.value ?? context.home.value,
            tabs: context.tabs.filter((t) => t.value !== event.value),
          })),
          'persist',
          { type: 'navigate', params: ({ context }) => context.active },
        ],
      },
      {
        guard: { type: 'canClose', params: ({ event }) => event.value },
        actions: [assign({ tabs: ({ context, event }) => context.tabs.filter((t) => t.value !== event.value) }), 'persist'],
      },
    ],
    'tabs.closeOthers': {
      actions: [
        assign({
          tabs: ({ context }) => {
            const kept = context.tabs.filter((t) => t.value === context.active || t.value === context.home.value);
            return kept.some((t) => t.value === context.home.value) ? kept : [context.home, ...kept];
          },
        }),
        'persist',
      ],
    },
    'tabs.reset': {
      actions: [assign(({ context }) => ({ tabs: [context.home], active: context.home.value })), 'persist'],
    },
    'tabs.closeAll': {
      actions: [
        assign(({ context }) => ({ tabs: [context.home], active: context.home.value })),
        'persist',
        { type: 'navigate', params: ({ context }) => context.home.value },
      ],
    },
  },
});
