import { createActor } from 'xstate';
import { describe, expect, it, vi } from 'vitest';
import { DEFAULT_PREFERENCES, preferencesMachine, THEMES } from './preferences';

describe('preferences machine', () => {
  it('offers the 11 themes and starts from the defaults', () => {
    expect(THEMES).toHaveLength(11);
    const actor = createActor(preferencesMachine, { input: {} }).start();
    expect(actor.getSnapshot().context).toEqual(DEFAULT_PREFERENCES);
  });

  it('falls back to each default when storage has nothing for it', () => {
    const input = { theme: undefined, colour: undefined, language: undefined, collapsed: undefined };
    const actor = createActor(preferencesMachine, { input }).start();
    expect(actor.getSnapshot().context).toEqual(DEFAULT_PREFERENCES);
  });

  it('restores stored choices but ignores an unknown theme', () => {
    const actor = createActor(preferencesMachine, { input: { theme: 'theme-nope' as never, colour: '#000000', language: 'en' } }).start();
    expect(actor.getSnapshot().context).toMatchObject({ theme: 'default', colour: '#000000', language: 'en' });
  });

  it('persists theme, colour and language and toggles collapse', () => {
    const persist = vi.fn();
    const actor = createActor(preferencesMachine.provide({ actions: { persist } }), { input: {} }).start();
    actor.send({ type: 'prefs.theme', theme: 'theme-dark' });
    actor.send({ type: 'prefs.colour', colour: '#ff0000' });
    actor.send({ type: 'prefs.language', language: 'en' });
    actor.send({ type: 'prefs.toggleCollapse' });
    expect(actor.getSnapshot().context).toMatchObject({ theme: 'theme-dark', colour: '#ff0000', language: 'en', collapsed: true });
    expect(persist).toHaveBeenCalledTimes(4);
  });

  it('opens and closes the drawer without storing it', () => {
    const persist = vi.fn();
    const actor = createActor(preferencesMachine.provide({ actions: { persist } }), { input: {} }).start();
    actor.send({ type: 'prefs.toggleDrawer' });
    expect(actor.getSnapshot().context.drawer).toBe(true);
    actor.send({ type: 'prefs.drawer', open: false });
    expect(actor.getSnapshot().context.drawer).toBe(false);
    expect(persist).not.toHaveBeenCalled();
  });
});
