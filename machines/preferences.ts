import { assign, setup } from 'xstate';

export const THEMES = [
  'default',
  'theme-white',
  'theme-dark',
  'theme-star',
  'theme-bule',
  'theme-iview',
  'theme-vip',
  'theme-cool',
  'theme-d2',
  'theme-hey',
  'theme-lte',
] as const;
export type ThemeName = (typeof THEMES)[number];
export type Language = 'zh' | 'en';

export interface Preferences {
  theme: ThemeName;
  colour: string;
  language: Language;
  collapsed: boolean;
  fullscreen: boolean;
  /** The sidebar drawer of narrow screens is open (never stored: a page always starts with it closed). */
  drawer: boolean;
}

export const DEFAULT_PREFERENCES: Preferences = {
  theme: 'default',
  colour: '#409EFF',
  language: 'zh',
  collapsed: false,
  fullscreen: false,
  drawer: false,
};

export type PreferencesEvent =
  | { type: 'prefs.theme'; theme: ThemeName }
  | { type: 'prefs.colour'; colour: string }
  | { type: 'prefs.language'; language: Language }
  | { type: 'prefs.toggleCollapse' }
  | { type: 'prefs.collapse'; collapsed: boolean }
  | { type: 'prefs.fullscreen'; fullscreen: boolean }
  | { type: 'prefs.toggleDrawer' }
  | { type: 'prefs.drawer'; open: boolean };

const isTheme = (value: unknown): value is ThemeName => THEMES.includes(value as ThemeName);

/** Layout toggles (sidebar collapse, the narrow screens' drawer, fullscreen) and the persisted choices (theme, colour, language). */
export const preferencesMachine = setup({
  types: { context: {} as Preferences, events: {} as PreferencesEvent, input: {} as Partial<Preferences> },
  actions: { persist: () => {}, apply: () => {} },
}).createMachine({
  id: 'preferences',
  // Stored values may be missing or stale: each one falls back to its default on its own.
  context: ({ input }) => ({
    theme: isTheme(input.theme) ? input.theme : DEFAULT_PREFERENCES.theme,
    colour: typeof input.colour === 'string' && /^#[0-9a-f]{3,8}$/i.test(input.colour) ? input.colour : DEFAULT_PREFERENCES.colour,
    language: input.language === 'en' ? 'en' : 'zh',
    collapsed: input.collapsed === true,
    fullscreen: false,
    drawer: false,
  }),
  entry: 'apply',
  on: {
    'prefs.theme': { guard: ({ event }) => isTheme(event.theme), actions: [assign({ theme: ({ event }) => event.theme }), 'persist', 'apply'] },
    'prefs.colour': { actions: [assign({ colour: ({ event }) => event.colour }), 'persist', 'apply'] },
    'prefs.language': { actions: [assign({ language: ({ event }) => event.language }), 'persist', 'apply'] },
    'prefs.toggleCollapse': { actions: [assign({ collapsed: ({ context }) => !context.collapsed }), 'persist'] },
    'prefs.collapse': { actions: [assign({ collapsed: ({ event }) => event.collapsed }), 'persist'] },
    'prefs.fullscreen': { actions: assign({ fullscreen: ({ event }) => event.fullscreen }) },
    'prefs.toggleDrawer': { actions: assign({ drawer: ({ context }) => !context.drawer }) },
    'prefs.drawer': { actions: assign({ drawer: ({ event }) => event.open }) },
  },
});
