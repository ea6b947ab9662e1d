import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { type ComponentType, Suspense } from 'react';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { activate } from '../app/i18n';
import { lazyPage } from '../app/lazyPage';
import { PageBoundary } from './PageBoundary';

beforeAll(async () => {
  await activate('zh');
});

describe('PageBoundary', () => {
  it('says why in words, draws its icon inline, and 重试 imports the chunk again', async () => {
    const load = vi
      .fn<() => Promise<{ default: ComponentType }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module: /assets/Page.js'))
      .mockResolvedValue({ default: () => <p className="page">loaded</p> });
    const Page = lazyPage(load);
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host, { onCaughtError: () => undefined });
    await act(async () =>
      root.render(
        <I18nProvider i18n={i18n}>
          <PageBoundary resetKey="a">
            <Suspense fallback={null}>
              <Page />
            </Suspense>
          </PageBoundary>
        </I18nProvider>,
      ),
    );
    await vi.waitFor(() => expect(host.textContent).toContain('页面加载失败'));
    expect(host.textContent).not.toContain('Failed to fetch');
    expect(host.querySelector('.vg-boundary-icon')).not.toBeNull();
    await act(async () => host.querySelector<HTMLButtonElement>('.vg-boundary-retry')?.click());
    await vi.waitFor(() => expect(host.querySelector('.page')?.textContent).toBe('loaded'));
    expect(load).toHaveBeenCalledTimes(2);
    root.unmount();
  });
});
