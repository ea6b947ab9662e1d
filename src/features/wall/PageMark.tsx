import { useLingui } from '@lingui/react/macro';

/** Which page of a panel's tiles is shown ("第 3/40 页"); nothing when they fit on one. */
export function PageMark({ page, pages }: { page: number; pages: number }) {
  const { t } = useLingui();
  if (pages < 2) return null;
  return (
    <span className="vg-wall-page" data-page={page} data-pages={pages}>
      {t`第 ${page}/${pages} 页`}
    </span>
  );
}
