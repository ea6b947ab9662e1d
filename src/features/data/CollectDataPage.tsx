import { CrudPage } from '../../crud/CrudPage';
import { collectDataView } from './dataViews';

/** /xinde/collectdata — raw messages, read-only; the payload in the detail view. */
export default function CollectDataPage() {
  return <CrudPage view={collectDataView} />;
}
