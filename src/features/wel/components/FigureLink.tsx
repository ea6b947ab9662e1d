import type { ReactNode } from 'react';
import { navigate } from '../../../app/navigation';

/**
 * A figure that leads to the list it counts. Only when the user holds that list's screen (`to` undefined
 * otherwise): a link to a 403 would be a promise the console does not keep.
 */
export function FigureLink({ to, children, className, testId }: { to?: string; children: ReactNode; className?: string; testId?: string }) {
  if (!to) return <span className={className} data-figure={testId}>{children}</span>;
  return (
    <a
      href={to}
      className={`vg-figure-link ${className ?? ''}`}
      data-figure={testId}
      onClick={(event) => {
        // A plain click stays in the console (a tab); a modified one keeps the browser's own meaning.
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </a>
  );
}
