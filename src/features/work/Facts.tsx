import type { ReactNode } from 'react';

/** A business record's facts as label/value pairs; `wide` ones take a whole line (a reason, a content). */
export function Facts({ items }: { items: ReadonlyArray<{ label: string; value: ReactNode; wide?: boolean; name?: string }> }) {
  return (
    <dl className="vg-process-facts">
      {items.map((item) => (
        <div key={item.label} className={`${item.wide ? 'vg-process-wide' : ''} vg-fact-${item.name ?? 'item'}`}>
          <dt>{item.label}</dt>
          <dd>{item.value === null || item.value === undefined || item.value === '' ? '-' : item.value}</dd>
        </div>
      ))}
    </dl>
  );
}
