import { I18nProvider, useLingui } from '@lingui/react';
import { useSelector } from '@xstate/react';
import { Suspense, useEffect, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { SCREEN_LOCKED } from '../../machines/lock';
import { PageBoundary } from '../ui/PageBoundary';
import { guard, type GuardDecision } from './guard';
import { i18n } from './i18n';
import { lazyPage } from './lazyPage';
import { navigate, routeOfTab } from './navigation';
import { type RouteQuery, RouteQueryContext } from './routeQuery';
import { resolveRoute } from './routes';
import { lockActor, sessionActor, tabsActor } from './shell';
import { tokenCookies } from './storage';
import { useViewport } from './useViewport';

const Layout = lazyPage(() => import('../features/shell/Layout'));

/** Routes with the navigation guard of spec §2 and the page title. */
function Routes() {
  const [path] = useLocation();
  const search = useSearch();
  const query = useMemo(() => Object.fromEntries(new URLSearchParams(search)), [search]);
  // A new claim for each page (path): its first list follows the URL.
  const claim = useMemo<RouteQuery['claim']>(() => ({}), [path]);
  const routeQuery = useMemo<RouteQuery>(() => ({ path, query, claim }), [path, query, claim]);
  const hasSession = useSelector(sessionActor, (s) => !!s.context.tokens);
  // Locked for the guard once the lock machine's navigation delay has passed (spec §4: /lock after 100 ms).
  const locked = useSelector(lockActor, (s) => s.hasTag(SCREEN_LOCKED));
  // Re-render when a catalog finishes loading, so labels and the title follow the language.
  const { i18n: active } = useLingui();
  const resolved = resolveRoute(path);
  const route = resolved.kind === 'route' ? resolved.route : undefined;
  const label = route ? query.name || active._(route.title) : '';
  const decision: GuardDecision = route
    ? guard({ path, query, meta: route.meta, label, hasToken: !!tokenCookies.access(), hasSession, locked })
    : { kind: 'redirect', to: resolved.kind === 'redirect' ? resolved.to : '/404' };

  const key = JSON.stringify(decision);
  useEffect(() => {
    if (decision.kind === 'redirect') navigate(decision.to, true);
    // The session machine clears the cookies and goes to /login.
    else if (decision.kind === 'federatedLogout') sessionActor.send({ type: 'session.federatedLogout' });
    else if (decision.kind === 'openWindow') {
      // A query target opens a new window; the console stays on the current tab.
      window.open(decision.url);
      const { active, tabs } = tabsActor.getSnapshot().context;
      navigate(routeOfTab(active, tabs.find((t) => t.value === active)?.label ?? ''), true);
    }
    else if (decision.tab) tabsActor.send({ type: 'tabs.open', tab: decision.tab });
    // The decision is compared by value (its JSON), not by identity.
  }, [key]);

  useEffect(() => {
    // Exactly the page's label, as spec §2 titles the login page 登录 (docs/console-screens.md, "Page titles").
    if (route) document.title = label;
  }, [route, label, active.locale]);

  if (!route || decision.kind !== 'enter') return null;
  const Page = route.component;
  const page = (
    <PageBoundary resetKey={path}>
      <Suspense fallback={null}>
        <RouteQueryContext.Provider value={routeQuery}>
          <Page />
        </RouteQueryContext.Provider>
      </Suspense>
    </PageBoundary>
  );
  if (!route.layout) return page;
  return (
    <PageBoundary resetKey="layout">
      <Suspense fallback={null}>
        <Layout>{page}</Layout>
      </Suspense>
    </PageBoundary>
  );
}

export function App() {
  useViewport();
  return (
    <I18nProvider i18n={i18n}>
      <Routes />
    </I18nProvider>
  );
}
