import { CrudPage } from '../../crud/CrudPage';
import { calculationLogView } from './dataViews';

/** /xinde/collectcalculationlog — recalculation runs, read-only. */
export default function CalculationLogPage() {
  return <CrudPage view={calculationLogView} />;
}
