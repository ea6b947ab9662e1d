import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { createActor, fromEventObservable, fromPromise } from 'xstate';
import { type ErrorLogEntry, errorLogMachine } from '../../machines/errorLog';
import { lockMachine } from '../../machines/lock';
import { type Preferences, preferencesMachine } from '../../machines/preferences';
import { type Credentials, type RefreshInput, sessionMachine, type SessionInput, type TokenResponse, type UserInfo } from '../../machines/session';
import { type Tab, tabsMachine } from '../../machines/tabs';
import { refreshTicks } from '../../streams/refreshTick';
import * as auth from '../api/auth';
import { bindHttp, http } from '../api/client';
import { uploadErrorLogs } from '../api/log';
import { toast, toastSuccess } from '../ui/toast';
import { site } from './config';
import { activate } from './i18n';
import { navigate, routeOfTab } from './navigation';
import { getRecord, getStore, removeStore, setStore, tokenCookies } from './storage';

export const HOME_TAB: Tab = { label: '首页', value: site.homePath, params: {}, query: {}, meta: { i18n: site.homePath }, group: [] };

interface StoredTokens {
  accessToken: string;
  refreshToken: string;
  datetime: number;
}

function restoredSession(): SessionInput {
  const stored = getRecord<StoredTokens>('token')?.content;
  const user = getStore<UserInfo>('userInfo');
  // Without its cookie (a closed browser ends cookie sessions) a stored token is not a session.
  return {
    tokens: stored?.accessToken && tokenCookies.access() ? stored : undefined,
    tenantId: getStore<string>('tenantId'),
    user,
    choice: getStore('choice') ?? {},
    tokenTime: site.tokenTime,
  };
}

export const lockActor = createActor(
  lockMachine.provide({
    actions: {
      persist: ({ context }) => {
        setStore('isLock', context.password.length > 0);
        setStore('lockPasswd', context.password);
      },
      goToLock: () => navigate(site.lockPage),
      leaveLock: () => {
        const { active, tabs } = tabsActor.getSnapshot().context;
        const tab = tabs.find((t) => t.value === active) ?? HOME_TAB;
        navigate(routeOfTab(tab.value, tab.label));
      },
    },
  }),
  { input: { locked: getStore<boolean>('isLock') ?? false, password: getStore<string>('lockPasswd') ?? '' } },
);

export const tabsActor = createActor(
  tabsMachine.provide({
    actions: {
      persist: ({ context }) => {
        setStore('tagList', context.tabs);
        setStore('tag', context.active);
      },
      navigate: ({ context }, path: string) => {
        const tab = context.tabs.find((t) => t.value === path);
        navigate(routeOfTab(path, tab?.label ?? ''));
      },
    },
  }),
  { input: { home: HOME_TAB, tabs: getStore<Tab[]>('tagList'), active: getStore<string>('tag') } },
);

export const sessionActor = createActor(
  sessionMachine.provide({
    actors: {
      login: fromPromise<TokenResponse, Credentials>(({ input }) => auth.login(input)),
      refresh: fromPromise<TokenResponse, RefreshInput>(({ input }) => auth.refresh(input)),
      logout: fromPromise<void, void>(() => auth.logout()),
      ticks: fromEventObservable(() => refreshTicks()),
    },
    actions: {
      persist: ({ context }) => {
        if (!context.tokens) return;
        tokenCookies.set(context.tokens.accessToken, context.tokens.refreshToken);
        setStore('token', context.tokens);
        setStore('tenantId', context.tenantId);
        setStore('userInfo', context.user);
        setStore('choice', context.choice);
      },
      forget: () => {
        tokenCookies.clear();
        for (const name of ['token', 'tenantId', 'userInfo', 'choice', 'menus', 'permission']) removeStore(name);
        http.resetOnce();
      },
      clearTabs: () => tabsActor.send({ type: 'tabs.reset' }),
      clearLock: () => lockActor.send({ type: 'lock.clear' }),
      enterConsole: () => navigate(site.homePath),
      toLogin: () => navigate('/login'),
    },
  }),
  { input: restoredSession() },
);

export const errorLogActor = createActor(
  errorLogMachine.provide({
    actors: { upload: fromPromise<void, ErrorLogEntry[]>(({ input }) => uploadErrorLogs(input)) },
    actions: {
      persist: ({ context }) => setStore('logsList', context.logs),
      uploaded: () => toastSuccess(i18n._(msg`发送成功!`)),
    },
  }),
  { input: { logs: getStore<ErrorLogEntry[]>('logsList') ?? [] } },
);

function applyPreferences(p: Preferences): void {
  const body = document.body;
  body.className = body.className.replace(/\btheme-\S+/g, '').trim();
  body.classList.add(p.theme === 'default' ? 'theme-default' : p.theme);
  body.classList.toggle('bp6-dark', p.theme === 'theme-dark');
  document.documentElement.style.setProperty('--primary', p.colour);
  // The first catalog is loaded by main before the first render; later changes load here.
  if (i18n.locale && i18n.locale !== p.language) void activate(p.language);
}

export const preferencesActor = createActor(
  preferencesMachine.provide({
    actions: {
      persist: ({ context }) => {
        setStore('themeName', context.theme);
        setStore('colorName', context.colour);
        setStore('language', context.language);
        setStore('isCollapse', context.collapsed);
      },
      apply: ({ context }) => applyPreferences(context),
    },
  }),
  {
    input: {
      theme: getStore<Preferences['theme']>('themeName'),
      colour: getStore<string>('colorName'),
      language: getStore<Preferences['language']>('language'),
      collapsed: getStore<boolean>('isCollapse'),
    },
  },
);

/**
 * Starts the shell's actors and binds the request layer to them. A standalone page (the wall screen) gets only the
 * preferences (its language) and the error log: a session there would refresh a user's tokens in the background and,
 * failing, navigate to /login; a lock would navigate to /lock.
 */
export function startShell(standalone = false): void {
  errorLogActor.start();
  preferencesActor.start();
  if (standalone) return;
  bindHttp({
    onUnauthorized: () => sessionActor.send({ type: 'session.unauthorized' }),
    notify: (message) => toast(message),
  });
  lockActor.start();
  tabsActor.start();
  sessionActor.start();
}
