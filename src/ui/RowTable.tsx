import { HTMLTable } from '@blueprintjs/core';
import type { CSSProperties, Key, ReactNode } from 'react';

/** A column of a RowTable: its header, its cell of a row, and the style of its header cell and of its cells. */
export interface RowColumn<T> {
  title: ReactNode;
  cell(row: T): ReactNode;
  headStyle?: CSSProperties;
  style?: CSSProperties;
}

/** The plain compact, striped, full-width table of the dialogs: a header row, then one row per item. */
export function RowTable<T>({
  rows,
  columns,
  rowKey,
  rowClassName,
  className,
  style,
}: {
  rows: readonly T[];
  columns: readonly RowColumn<T>[];
  rowKey(row: T, index: number): Key;
  rowClassName?(row: T): string;
  className?: string;
  style?: CSSProperties;
}) {
  return (
    <HTMLTable compact striped className={className} style={{ width: '100%', ...style }}>
      <thead>
        <tr>
          {columns.map((column, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
            <th key={i} style={column.headStyle}>
              {column.title}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, index) => (
          <tr key={rowKey(row, index)} className={rowClassName?.(row)}>
            {columns.map((column, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
              <td key={i} style={column.style}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
