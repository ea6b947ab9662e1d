import { Classes } from '@blueprintjs/core';

const ROWS = 6;

/** Placeholder rows while the first page loads: static (no lazy chunk), so it shows before the table's chunk. */
export function CrudSkeleton() {
  return (
    <div className="vg-crud-table vg-crud-skeleton" aria-busy="true">
      {Array.from({ length: ROWS }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholder rows
        <div key={i} className={`vg-skeleton-row ${Classes.SKELETON}`} />
      ))}
    </div>
  );
}
