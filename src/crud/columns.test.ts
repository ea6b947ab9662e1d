import { describe, expect, it } from 'vitest';
import { arrangeColumns, columnsStoreName, isDefault, moveColumn, prefsOf, toggleColumn } from './columns';

const names = (choices: { name: string }[]) => choices.map((c) => c.name);

describe('column choices', () => {
  it("are the view's own columns, all shown, until the user chooses", () => {
    const choices = arrangeColumns(['code', 'name', 'online']);
    expect(choices).toEqual([
      { name: 'code', shown: true },
      { name: 'name', shown: true },
      { name: 'online', shown: true },
    ]);
    expect(isDefault(['code', 'name', 'online'], choices)).toBe(true);
  });

  it("keep the stored order and hidden columns, dropping names the view no longer has", () => {
    const choices = arrangeColumns(['code', 'name', 'online'], { order: ['online', 'gone', 'code', 'name'], hidden: ['name', 'gone'] });
    expect(choices).toEqual([
      { name: 'online', shown: true },
      { name: 'code', shown: true },
      { name: 'name', shown: false },
    ]);
  });

  it('place a column added to the view later after the one declared before it, shown', () => {
    const stored = { order: ['name', 'code', 'online'], hidden: ['online'] };
    expect(names(arrangeColumns(['code', 'lastSeen', 'name', 'online'], stored))).toEqual(['name', 'code', 'lastSeen', 'online']);
    expect(names(arrangeColumns(['first', 'code', 'name', 'online'], stored))).toEqual(['first', 'name', 'code', 'online']);
    expect(arrangeColumns(['code', 'lastSeen', 'name', 'online'], stored).find((c) => c.name === 'lastSeen')?.shown).toBe(true);
  });

  it('move up, down or to a dropped place, clamped to the list', () => {
    const choices = arrangeColumns(['a', 'b', 'c']);
    expect(names(moveColumn(choices, 'c', 0))).toEqual(['c', 'a', 'b']);
    expect(names(moveColumn(choices, 'a', 1))).toEqual(['b', 'a', 'c']);
    expect(names(moveColumn(choices, 'a', 9))).toEqual(['b', 'c', 'a']);
    expect(names(moveColumn(choices, 'a', -1))).toEqual(['a', 'b', 'c']);
    expect(names(moveColumn(choices, 'nope', 0))).toEqual(['a', 'b', 'c']);
  });

  it('hide and show again, but never hide the last shown column', () => {
    let choices = toggleColumn(arrangeColumns(['a', 'b']), 'a');
    expect(prefsOf(choices)).toEqual({ order: ['a', 'b'], hidden: ['a'] });
    expect(toggleColumn(choices, 'b')).toEqual(choices);
    choices = toggleColumn(choices, 'a');
    expect(prefsOf(choices).hidden).toEqual([]);
  });

  it('are stored per user and per screen', () => {
    expect(columnsStoreName('1123598821738675201', 'wit-xinde/device/list')).toBe('columns-1123598821738675201-wit-xinde/device/list');
    expect(columnsStoreName('7', 'wit-xinde/device/list')).not.toBe(columnsStoreName('8', 'wit-xinde/device/list'));
    expect(columnsStoreName('7', 'wit-xinde/device/list')).not.toBe(columnsStoreName('7', 'wit-xinde/gateway/list'));
    expect(columnsStoreName('', 'wit-xinde/device/list')).toBe('columns-anonymous-wit-xinde/device/list');
  });
});
