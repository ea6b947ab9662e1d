import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { sessionActor } from '../app/shell';
import { getStore, removeStore, setStore } from '../app/storage';
import { arrangeColumns, type ColumnChoice, type ColumnPrefs, columnsStoreName, isDefault, prefsOf } from './columns';
import type { FieldView } from './types';

export interface Columns {
  /** The table's fields, in the user's order, without the hidden ones. */
  shown: FieldView[];
  choices: ColumnChoice[];
  /** The view's own columns (nothing to reset). */
  unchanged: boolean;
  labelOf(name: string): FieldView['label'];
  change(choices: readonly ColumnChoice[]): void;
  reset(): void;
}

/** The signed-in user's columns of one screen, stored like the other preferences (local storage, site key). */
export function useColumns(screen: string, fields: readonly FieldView[]): Columns {
  const userId = useSelector(sessionActor, (s) => s.context.user?.userId ?? '');
  const name = columnsStoreName(userId, screen);
  // Bumped on every change so the stored value is read again (a dependency of the memo below).
  const [version, setVersion] = useState(0);
  const names = fields.map((f) => f.name).join(',');
  const declared = useMemo(() => (names ? names.split(',') : []), [names]);
  const choices = useMemo(() => arrangeColumns(declared, getStore<ColumnPrefs>(name)), [declared, name, version]);
  const byName = useMemo(() => new Map(fields.map((f) => [f.name, f])), [fields]);
  const shown = useMemo(() => choices.filter((c) => c.shown).flatMap((c) => byName.get(c.name) ?? []), [choices, byName]);
  return {
    shown,
    choices,
    unchanged: isDefault(declared, choices),
    labelOf: (field) => byName.get(field)?.label ?? { id: field },
    change(next) {
      setStore(name, prefsOf(next));
      setVersion((v) => v + 1);
    },
    reset() {
      removeStore(name);
      setVersion((v) => v + 1);
    },
  };
}
