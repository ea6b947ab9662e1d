import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { sessionActor } from '../app/shell';
import { getStore, removeStore, setStore } from '../app/storage';
import { arrangeColumns, type ColumnChoice, type ColumnPrefs, columnsStoreName, prefsOf } from './columns';
import type { FieldView } from './types';

export interface Columns {
  /** The table's fields, in the user's order, without the hidden ones. */
  shown: FieldView[];
  choices: ColumnChoice[];
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
  const choices = useMemo(() => arrangeColumns(names ? names.split(',') : [], getStore<ColumnPrefs>(name)), [names, name, version]);
  const byName = new Map(fields.map((f) => [f.name, f]));
  return {
    shown: choices.filter((c) => c.shown).flatMap((c) => byName.get(c.name) ?? []),
    choices,
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
