import { createActor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { closable, type Tab, tabsMachine } from './tabs';

const home: Tab = { label: '首页', value: '/wel/index' };
const page = (n: number): Tab => ({ label: `页面${n}`, value: `/page/${n}` });

function harness(input: { tabs?: Tab[]; active?: string } = {}) {
  const navigate = vi.fn();
  const persist = vi.fn();
  const actor = createActor(tabsMachine.provide({ actions: { navigate: (_, path: string) => navigate(path), persist } }), {
    input: { home, ...input },
  }).start();
  const values = () => actor.getSnapshot().context.tabs.map((t) => t.value);
  return { actor, navigate, persist, values };
}

describe('tab set machine', () => {
  it('starts with the home tab, which cannot close as the last tab', () => {
    const { actor, values } = harness();
    expect(values()).toEqual(['/wel/index']);
    actor.send({ type: 'tabs.close', value: '/wel/index' });
    expect(values()).toEqual(['/wel/index']);
  });

  it('adds tabs, skipping duplicates, and activates them', () => {
    const { actor, values } = harness();
    actor.send({ type: 'tabs.open', tab: page(1) });
    actor.send({ type: 'tabs.open', tab: page(2) });
    actor.send({ type: 'tabs.open', tab: page(1) });
    expect(values()).toEqual(['/wel/index', '/page/1', '/page/2']);
    expect(actor.getSnapshot().context.active).toBe('/page/1');
  });

  it('updates the tab of the same key with the new value (a page changing its view state in the query)', () => {
    const { actor, values } = harness();
    const chart = (query: string): Tab => ({ label: '历史曲线', value: `/xinde/device/history?id=7${query}`, key: '/xinde/device/history?id=7' });
    actor.send({ type: 'tabs.open', tab: chart('') });
    actor.send({ type: 'tabs.open', tab: page(1) });
    actor.send({ type: 'tabs.open', tab: chart('&range=1h') });
    expect(values()).toEqual(['/wel/index', '/xinde/device/history?id=7&range=1h', '/page/1']);
    expect(actor.getSnapshot().context.active).toBe('/xinde/device/history?id=7&range=1h');
    actor.send({ type: 'tabs.open', tab: { ...chart(''), value: '/xinde/device/history?id=8', key: '/xinde/device/history?id=8' } });
    expect(values()).toHaveLength(4);
  });

  it('closable: one tab never; else all but the home tab', () => {
    expect(closable([page(1)], page(1), home)).toBe(false);
    expect(closable([home, page(1)], page(1), home)).toBe(true);
    expect(closable([home, page(1)], home, home)).toBe(false);
    expect(closable([page(1), page(2)], page(1), home)).toBe(true);
  });

  it('closing the active tab opens the previous tab', () => {
    const { actor, navigate, values } = harness({ tabs: [home, page(1), page(2)], active: '/page/2' });
    actor.send({ type: 'tabs.close', value: '/page/2' });
    expect(values()).toEqual(['/wel/index', '/page/1']);
    expect(actor.getSnapshot().context.active).toBe('/page/1');
    expect(navigate).toHaveBeenCalledWith('/page/1');
  });

  it('closing the active first tab opens the new first tab', () => {
    const { actor, navigate } = harness({ tabs: [page(1), page(2)], active: '/page/1' });
    actor.send({ type: 'tabs.close', value: '/page/1' });
    expect(actor.getSnapshot().context.active).toBe('/page/2');
    expect(navigate).toHaveBeenCalledWith('/page/2');
  });

  it('closing an inactive tab stays put', () => {
    const { actor, navigate, values } = harness({ tabs: [home, page(1), page(2)], active: '/page/2' });
    actor.send({ type: 'tabs.close', value: '/page/1' });
    expect(values()).toEqual(['/wel/index', '/page/2']);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('close others keeps the current and the home tab', () => {
    const { actor, values } = harness({ tabs: [home, page(1), page(2), page(3)], active: '/page/2' });
    actor.send({ type: 'tabs.closeOthers' });
    expect(values()).toEqual(['/wel/index', '/page/2']);
  });

  it('close all goes back to the home tab', () => {
    const { actor, navigate, values } = harness({ tabs: [home, page(1), page(2)], active: '/page/2' });
    actor.send({ type: 'tabs.closeAll' });
    expect(values()).toEqual(['/wel/index']);
    expect(actor.getSnapshot().context.active).toBe('/wel/index');
    expect(navigate).toHaveBeenCalledWith('/wel/index');
  });

  it('reset keeps only the home tab without navigating', () => {
    const { actor, navigate, values } = harness({ tabs: [home, page(1)], active: '/page/1' });
    actor.send({ type: 'tabs.reset' });
    expect(values()).toEqual(['/wel/index']);
    expect(navigate).not.toHaveBeenCalled();
  });
});
