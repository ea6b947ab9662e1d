import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { useState } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Resource } from '../../resources/define';
import { signedIn } from '../../tests/support/client';
import { startServer, type TestServer } from '../../tests/support/server';
import { type RouteQuery, RouteQueryContext } from '../app/routeQuery';
import { errorLogActor } from '../app/shell';
import { activate } from '../app/i18n';
import { permissionsOf } from '../app/menu';
import { setPermissions } from '../app/permissions';
import { tokenCookies } from '../app/storage';
import { menuButtons } from '../api/system';
import { paramView } from '../features/system/paramView';
import { tenantPackageView } from '../features/system/tenantPackageView';
import { ConfirmHost } from '../ui/confirm';
import { CrudPage } from './CrudPage';
import type { CrudView } from './types';

/**
 * The generic page's rules in happy-dom against the real platform server (in-process, SQLite): every call goes
 * over HTTP; the server's request log shows what the page sent.
 */
let server: TestServer;
const requests: URL[] = [];
let permissions: Record<string, true>;
let root: Root | undefined;
let host: HTMLElement;

const $ = <T extends Element = HTMLElement>(selector: string) => document.querySelector<T>(selector);
const $$ = (selector: string) => [...document.querySelectorAll<HTMLElement>(selector)];
const toasts = () => $$('.bp6-toast-message').map((t) => t.textContent);
/** Calls the server saw (its log has the paths without the /api prefix). */
const listCalls = (path: string) => requests.filter((u) => `/api${u.pathname}` === path);

function typeInto(input: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto = input instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

function click(selector: string) {
  const element = $(selector);
  if (!element) throw new Error(`no element ${selector}`);
  element.click();
}

function mount<R extends Resource>(view: CrudView<R>) {
  root = createRoot(host);
  root.render(
    <I18nProvider i18n={i18n}>
      <CrudPage view={view} />
      <ConfirmHost />
    </I18nProvider>,
  );
}

/** Waits until the list call for page `current` was answered and rendered. */
async function settled(current: string) {
  await vi.waitFor(() => expect(listCalls('/api/blade-system/param/list').some((u) => u.searchParams.get('current') === current)).toBe(true));
  await vi.waitFor(() => expect($('.vg-crud-toolbar .bp6-spinner')).toBeNull());
}

async function confirmDialog(question: string) {
  await vi.waitFor(() => expect($('.bp6-alert')?.textContent).toContain(question));
  const yes = [...document.querySelectorAll<HTMLButtonElement>('.bp6-alert button')].find((b) => b.textContent === '确定');
  yes?.click();
}

const api = () => signedIn(server.url);
const paramCount = async (key: string) => (await (await api()).get<{ total: number }>('/api/blade-system/param/list', { paramKey: key })).body.data.total;

beforeAll(async () => {
  // happy-dom has no layout: give elements a size so Blueprint's table renders every row and column.
  for (const [key, size] of [['clientWidth', 2400], ['clientHeight', 1200], ['offsetWidth', 2400], ['offsetHeight', 1200]] as const) {
    Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => size });
  }
  server = await startServer('sqlite', {}, (app) => {
    app.app.addHook('onRequest', async (request) => {
      requests.push(new URL(request.url, 'http://server'));
      // A slow list, so the page is seen before its first answer.
      if (request.url.includes('paramKey=slow.')) await new Promise((resolve) => setTimeout(resolve, 600));
    });
  });
  // The page calls relative paths: the document lives on the server's origin.
  (window as unknown as { happyDOM: { setURL(url: string): void } }).happyDOM.setURL(`${server.url}/system/param`);
  const admin = await api();
  tokenCookies.set(admin.token ?? '', admin.token ?? '');
  permissions = permissionsOf(await menuButtons());
  await activate('zh');
  errorLogActor.start();
  for (let i = 0; i < 12; i++) await admin.post('/api/blade-system/param/submit', { paramName: `组件 ${i}`, paramKey: `unit.k${String(i).padStart(2, '0')}`, paramValue: 'v' });
}, 60_000);

afterAll(async () => {
  root?.unmount();
  await server?.stop();
});

beforeEach(() => {
  root?.unmount();
  root = undefined;
  // Only the page's own host goes: the toaster keeps its container in the body between tests.
  host?.remove();
  host = document.createElement('div');
  document.body.append(host);
  requests.length = 0;
  setPermissions(permissions);
});

describe('CrudPage', () => {
  it('loads page 1 with 10 rows, drops empty search values and resets to page 1 on search', async () => {
    mount(paramView);
    await vi.waitFor(() => expect($('.vg-current')?.textContent).toBe('1 / 2'));
    const first = listCalls('/api/blade-system/param/list')[0];
    expect(first.searchParams.get('current')).toBe('1');
    expect(first.searchParams.get('size')).toBe('10');

    click('.vg-next');
    await settled('2');
    typeInto($<HTMLInputElement>('#search-paramKey')!, 'unit.k');
    typeInto($<HTMLInputElement>('#search-paramName')!, '   ');
    requests.length = 0;
    click('.vg-search');
    await vi.waitFor(() => expect(listCalls('/api/blade-system/param/list').map(String)).toHaveLength(1));
    const searched = listCalls('/api/blade-system/param/list')[0].searchParams;
    expect(Object.fromEntries(searched)).toEqual({ current: '1', size: '10', paramKey: 'unit.k' });
    // The page goes back to 1 at once; the total changes when the searched list arrives (both lists have 2 pages).
    await vi.waitFor(() => expect($('.vg-total')?.textContent).toContain('12'));
    expect($('.vg-current')?.textContent).toBe('1 / 2');

    click('.vg-next');
    await settled('2');
    expect($('.vg-current')?.textContent).toBe('2 / 2');
    requests.length = 0;
    typeInto($<HTMLInputElement>('#search-date-from')!, '2000-01-01');
    await vi.waitFor(() => expect(listCalls('/api/blade-system/param/list')).toHaveLength(1));
    expect(Object.fromEntries(listCalls('/api/blade-system/param/list')[0].searchParams)).toMatchObject({ current: '1', createTime_dategt: '2000-01-01' });
    await vi.waitFor(() => expect($('.vg-current')?.textContent).toBe('1 / 2'));
  });

  it('filters by parameters set beside the list, from page 1 again', async () => {
    let pick: (key: string) => void = () => undefined;
    // biome-ignore lint/correctness/noComponentHookFactories: the test drives the component through the `pick` it closes over
    function WithAside() {
      const [params, setParams] = useState<Record<string, string>>({});
      pick = (key) => setParams({ paramKey: key });
      return <CrudPage view={paramView} params={params} aside={<div className="vg-test-aside">aside</div>} />;
    }
    root = createRoot(host);
    root.render(
      <I18nProvider i18n={i18n}>
        <WithAside />
      </I18nProvider>,
    );
    await vi.waitFor(() => expect($('.vg-current')?.textContent).toBe('1 / 2'));
    expect($('.vg-crud-aside .vg-test-aside')).not.toBeNull();
    click('.vg-next');
    await settled('2');
    requests.length = 0;
    pick('unit.k0');
    await vi.waitFor(() => expect($('.vg-current')?.textContent).toBe('1 / 1'));
    const calls = listCalls('/api/blade-system/param/list').map((u) => Object.fromEntries(u.searchParams));
    expect(calls).toEqual([{ current: '1', size: '10', paramKey: 'unit.k0' }]);
  });

  it('warns when batch delete has nothing selected', async () => {
    mount(paramView);
    await vi.waitFor(() => expect($('.vg-batch-delete')).not.toBeNull());
    click('.vg-batch-delete');
    await vi.waitFor(() => expect(toasts()).toContain('请选择至少一条数据'));
    expect(listCalls('/api/blade-system/param/remove')).toHaveLength(0);
  });

  it('asks before deleting the selected rows and reports success', async () => {
    const admin = await api();
    await admin.post('/api/blade-system/param/submit', { paramName: '待删', paramKey: 'unit.gone', paramValue: 'v' });
    mount(paramView);
    await vi.waitFor(() => expect($('#search-paramKey')).not.toBeNull());
    typeInto($<HTMLInputElement>('#search-paramKey')!, 'unit.gone');
    click('.vg-search');
    await vi.waitFor(() => expect($('.vg-total')?.textContent).toContain('1'));
    await vi.waitFor(() => expect($$('.vg-select input').length).toBeGreaterThan(0));
    $<HTMLInputElement>('.vg-select input')!.click();
    click('.vg-batch-delete');
    await confirmDialog('确定将选择数据删除?');
    await vi.waitFor(() => expect(toasts()).toContain('删除成功'));
    expect(listCalls('/api/blade-system/param/remove')).toHaveLength(1);
    expect(await paramCount('unit.gone')).toBe(0);
  });

  it('adds with 新增成功; a refused save releases the button and stays out of the error log', async () => {
    mount(paramView);
    await vi.waitFor(() => expect($('.vg-add')).not.toBeNull());
    click('.vg-add');
    await vi.waitFor(() => expect($('#field-paramName')).not.toBeNull());
    const save = () => [...document.querySelectorAll<HTMLButtonElement>('.bp6-dialog button')].find((b) => b.textContent === '保存')!;
    save().click();
    await vi.waitFor(() => expect($('.bp6-dialog')?.textContent).toContain('请输入参数键值'));
    typeInto($<HTMLInputElement>('#field-paramName')!, '组件新增');
    typeInto($<HTMLInputElement>('#field-paramKey')!, 'unit.added');
    typeInto($<HTMLTextAreaElement>('#field-paramValue')!, 'v');
    save().click();
    await vi.waitFor(() => expect(toasts()).toContain('新增成功'));
    await vi.waitFor(() => expect($('.bp6-dialog')).toBeNull());
    expect(await paramCount('unit.added')).toBe(1);

    const logged = errorLogActor.getSnapshot().context.logs.length;
    click('.vg-add');
    await vi.waitFor(() => expect($('#field-paramName')).not.toBeNull());
    typeInto($<HTMLInputElement>('#field-paramName')!, '重复');
    typeInto($<HTMLInputElement>('#field-paramKey')!, 'unit.added');
    typeInto($<HTMLTextAreaElement>('#field-paramValue')!, 'v');
    save().click();
    await vi.waitFor(() => expect(save().classList.contains('bp6-loading')).toBe(false));
    expect($('.bp6-dialog')).not.toBeNull();
    // A refusal the server answers on purpose (400) is no error: the local error log stays as it was.
    expect(errorLogActor.getSnapshot().context.logs.length).toBe(logged);
    // The request layer's toast is the only one (its notify hook is not bound here): the form adds none.
    expect(toasts()).not.toContain('参数键名已存在');
  });

  it('shows skeleton rows, not 暂无数据 / 共 0 条, until the first page has loaded; then the empty text when empty', async () => {
    mount({ ...paramView, list: { params: { paramKey: 'slow.none' } } });
    await vi.waitFor(() => expect($('.vg-crud-skeleton')).not.toBeNull());
    expect(host.textContent).not.toContain('暂无数据');
    expect($('.vg-total')?.textContent).toBe('');
    await vi.waitFor(() => expect($('.vg-crud-empty')?.textContent).toContain('暂无数据'));
    expect($('.vg-crud-skeleton')).toBeNull();
    expect($('.vg-total')?.textContent).toBe('共 0 条');
  });

  it('shows only the buttons the permission map grants and the view allows', async () => {
    setPermissions({});
    mount(paramView);
    await vi.waitFor(() => expect($$('.vg-select').length).toBeGreaterThan(0));
    expect($('.vg-add')).toBeNull();
    expect($('.vg-batch-delete')).toBeNull();
    expect($$('.vg-action-edit, .vg-action-view, .vg-action-delete')).toHaveLength(0);

    setPermissions({ param_view: true });
    await vi.waitFor(() => expect($$('.vg-action-view').length).toBeGreaterThan(0));
    expect($('.vg-add')).toBeNull();
    expect($$('.vg-action-edit')).toHaveLength(0);
  });

  it('never shows a view button on the tenant package page, even when granted', async () => {
    const admin = await api();
    await admin.post('/api/blade-system/tenant-package/submit', { packageName: '组件包', menuId: '1' }).catch(() => undefined);
    setPermissions({ ...permissions, tenant_package_view: true });
    mount(tenantPackageView);
    await vi.waitFor(() => expect($('.vg-add')).not.toBeNull());
    await vi.waitFor(() => expect($$('.vg-action-edit').length).toBeGreaterThan(0));
    expect($$('.vg-action-view')).toHaveLength(0);
  });

  it("follows the page URL: a link's filters start it, a new link resets it, changes are written back; a second list does not follow", async () => {
    let link: (query: Record<string, string>) => void = () => undefined;
    let openSecond: () => void = () => undefined;
    // biome-ignore lint/correctness/noComponentHookFactories: the test drives the route's query through `link`
    function Route() {
      const [route, setRoute] = useState<RouteQuery>({ path: '/system/param', query: { paramKey: 'unit.k0', id_notnull: '1', descs: 'paramKey', name: '参数' }, claim: {} });
      const [second, setSecond] = useState(false);
      link = (query) => setRoute((r) => ({ ...r, query }));
      openSecond = () => setSecond(true);
      return (
        <RouteQueryContext.Provider value={route}>
          <CrudPage view={paramView} />
          {/* A list opened later on the same page, as in a dialog. */}
          {second && (
            <div className="vg-second">
              <CrudPage view={paramView} />
            </div>
          )}
        </RouteQueryContext.Provider>
      );
    }
    root = createRoot(host);
    root.render(
      <I18nProvider i18n={i18n}>
        <Route />
      </I18nProvider>,
    );
    const calls = () => listCalls('/api/blade-system/param/list').map((u) => Object.fromEntries(u.searchParams));
    // The list follows the link (the tab's name is the shell's, not a filter).
    await vi.waitFor(() => expect(calls()).toEqual([{ current: '1', size: '10', paramKey: 'unit.k0', id_notnull: '1', descs: 'paramKey' }]));
    // A second list opened later on the page does not.
    openSecond();
    await vi.waitFor(() => expect(calls()).toEqual([{ current: '1', size: '10', paramKey: 'unit.k0', id_notnull: '1', descs: 'paramKey' }, { current: '1', size: '10' }]));
    await vi.waitFor(() => expect($('.vg-second .vg-total')?.textContent).toContain('共'));
    expect($<HTMLInputElement>('#search-paramKey')?.value).toBe('unit.k0');
    // The filter the search bar does not show is named, and removable.
    expect($('[data-testid="list-filters"]')?.textContent).toContain('编号 不为空');
    expect($$('.vg-second [data-testid="list-filters"]')).toHaveLength(0);

    requests.length = 0;
    $<HTMLButtonElement>('[data-filter="id_notnull"] button')!.click();
    await vi.waitFor(() => expect(calls()).toEqual([{ current: '1', size: '10', paramKey: 'unit.k0', descs: 'paramKey' }]));
    // Written back over the current history entry, with the shell's own key kept.
    await vi.waitFor(() => expect(Object.fromEntries(new URLSearchParams(window.location.search))).toEqual({ name: '参数', paramKey: 'unit.k0', descs: 'paramKey' }));
    expect(window.location.pathname).toBe('/system/param');

    requests.length = 0;
    link({ paramKey: 'unit.k1' });
    await vi.waitFor(() => expect(calls()).toEqual([{ current: '1', size: '10', paramKey: 'unit.k1' }]));
    await vi.waitFor(() => expect($<HTMLInputElement>('#search-paramKey')?.value).toBe('unit.k1'));
    expect($('[data-testid="list-filters"]')).toBeNull();
  });
});
