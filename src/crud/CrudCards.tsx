import { Button, Card, Checkbox, NonIdealState } from '@blueprintjs/core';
import { useLingui } from '@lingui/react/macro';
import type { TreeLine } from './query';
import type { CrudTableProps } from './CrudTable';
import { RowButtons } from './RowButtons';
import { toggled } from './selection';
import { FieldCell } from './widgets';

/** Lines a card shows: the first columns the user keeps (the chooser orders them), so a card stays short. */
const CARD_LINES = 6;

type CrudCardsProps = Omit<CrudTableProps, 'sort' | 'onSort' | 'actionCount'>;

/** A tree line's caret: opens or closes its children. */
function Caret({ line, onExpand }: { line: TreeLine; onExpand(line: TreeLine): void }) {
  const { t } = useLingui();
  if (!line.expandable) return null;
  return <Button size="small" variant="minimal" className="vg-tree-toggle" icon={line.expanded ? 'caret-down' : 'caret-right'} onClick={() => onExpand(line)} aria-label={t`展开`} />;
}

/**
 * The list on narrow screens: one card per row, its main columns as label/value lines and its actions as buttons,
 * so an operator on site can read and act on a row on a phone without scrolling sideways.
 */
export function CrudCards({ lines, loading, fields, firstIndex, selected, onSelect, tree, onExpand, actions }: CrudCardsProps) {
  const { t, i18n } = useLingui();
  const shown = fields.slice(0, CARD_LINES);
  if (lines.length === 0) return <div className="vg-crud-cards">{!loading && <NonIdealState icon="inbox" description={t`暂无数据`} />}</div>;
  return (
    <div className="vg-crud-cards">
      {lines.map((line, r) => (
        <Card key={line.row.id} className="vg-crud-card" data-row={r} style={tree ? { marginLeft: Math.min(line.depth, 4) * 12 } : undefined}>
          <div className="vg-crud-card-head">
            <Checkbox className="vg-select" checked={selected.has(line.row.id)} onChange={() => onSelect(toggled(selected, line.row.id))} aria-label={t`选择`} />
            {tree && <Caret line={line} onExpand={onExpand} />}
            <span className="vg-crud-card-index">#{firstIndex + r}</span>
          </div>
          <dl className="vg-crud-card-fields">
            {shown.map((field) => (
              <div key={field.name} className="vg-crud-card-line">
                <dt>{i18n._(field.label)}</dt>
                <dd>
                  <FieldCell field={field} row={line.row} />
                </dd>
              </div>
            ))}
          </dl>
          <div className="vg-crud-card-actions">
            <RowButtons buttons={actions(line.row)} compact={false} />
          </div>
        </Card>
      ))}
    </div>
  );
}
