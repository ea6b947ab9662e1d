import { Button, Checkbox, PopoverNext } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { moveColumn, toggleColumn } from './columns';
import type { Columns } from './useColumns';

/**
 * The toolbar's column chooser: show or hide each column and put them in order (up/down buttons or dragging a line
 * onto another), or go back to the view's own columns. The choice is the signed-in user's, per screen (useColumns).
 */
export function ColumnChooser({ columns }: { columns: Columns }) {
  const { t, i18n } = useLingui();
  const [dragged, setDragged] = useState<string>();
  const { choices, change } = columns;
  const content = (
    <div className="vg-column-chooser">
      <ol>
        {choices.map((c, i) => (
          <li
            key={c.name}
            className="vg-column-choice"
            data-name={c.name}
            draggable
            onDragStart={(e) => {
              e.dataTransfer.effectAllowed = 'move';
              setDragged(c.name);
            }}
            onDragOver={(e) => dragged && e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              if (dragged) change(moveColumn(choices, dragged, i));
              setDragged(undefined);
            }}
            onDragEnd={() => setDragged(undefined)}
          >
            <span className="vg-drag-handle" aria-hidden="true">⋮⋮</span>
            <Checkbox checked={c.shown} label={i18n._(columns.labelOf(c.name))} onChange={() => change(toggleColumn(choices, c.name))} />
            <Button size="small" variant="minimal" icon="arrow-up" className="vg-column-up" aria-label={t`上移`} title={t`上移`} disabled={i === 0} onClick={() => change(moveColumn(choices, c.name, i - 1))} />
            <Button size="small" variant="minimal" icon="arrow-down" className="vg-column-down" aria-label={t`下移`} title={t`下移`} disabled={i === choices.length - 1} onClick={() => change(moveColumn(choices, c.name, i + 1))} />
          </li>
        ))}
      </ol>
      <Button size="small" icon="undo" text={t`重置`} className="vg-columns-reset" disabled={columns.unchanged} onClick={columns.reset} />
    </div>
  );
  return (
    <PopoverNext content={content} placement="bottom-end">
      <Button icon="th-list" variant="minimal" className="vg-columns" aria-label={t`列设置`} title={t`列设置`} />
    </PopoverNext>
  );
}
