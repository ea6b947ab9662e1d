/** A user's choice of a list's columns: their order and the ones hidden, by field name. */
export interface ColumnPrefs {
  order: readonly string[];
  hidden: readonly string[];
}

/** One column in the chooser: its field name and whether the table shows it. */
export interface ColumnChoice {
  name: string;
  shown: boolean;
}

/** The storage name of a user's columns on one screen (under the site key, like the other preferences). */
export const columnsStoreName = (userId: string, screen: string): string => `columns-${userId || 'anonymous'}-${screen}`;

/**
 * The view's columns in the user's order. Stored names the view no longer has are dropped; columns added to the view
 * since the choice was stored are shown, placed after the column the view declares before them.
 */
export function arrangeColumns(declared: readonly string[], prefs?: ColumnPrefs): ColumnChoice[] {
  const hidden = new Set(prefs?.hidden ?? []);
  const order = (prefs?.order ?? []).filter((name, i, all) => declared.includes(name) && all.indexOf(name) === i);
  for (const [i, name] of declared.entries()) {
    if (order.includes(name)) continue;
    const before = declared.slice(0, i).findLast((n) => order.includes(n));
    order.splice(before === undefined ? 0 : order.indexOf(before) + 1, 0, name);
  }
  return order.map((name) => ({ name, shown: !hidden.has(name) }));
}

/** The choices to store. */
export const prefsOf = (choices: readonly ColumnChoice[]): ColumnPrefs => ({
  order: choices.map((c) => c.name),
  hidden: choices.filter((c) => !c.shown).map((c) => c.name),
});

/** Moves a column to another place (a drop, or one step up or down); out-of-range places are clamped. */
export function moveColumn(choices: readonly ColumnChoice[], name: string, to: number): ColumnChoice[] {
  const from = choices.findIndex((c) => c.name === name);
  if (from < 0) return [...choices];
  const next = choices.filter((c) => c.name !== name);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, choices[from]);
  return next;
}

/** Shows or hides a column; the last shown column stays (a table needs one). */
export function toggleColumn(choices: readonly ColumnChoice[], name: string): ColumnChoice[] {
  const shown = choices.filter((c) => c.shown);
  if (shown.length === 1 && shown[0].name === name) return [...choices];
  return choices.map((c) => (c.name === name ? { ...c, shown: !c.shown } : c));
}

/** Whether the choices are the view's own (nothing to reset). */
export const isDefault = (declared: readonly string[], choices: readonly ColumnChoice[]): boolean =>
  choices.every((c, i) => c.shown && c.name === declared[i]) && choices.length === declared.length;
