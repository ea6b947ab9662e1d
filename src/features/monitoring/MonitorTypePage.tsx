import { CrudPage } from '../../crud/CrudPage';
import { monitorTypeView } from './monitoringViews';

/** /xinde/monitortype */
export default function MonitorTypePage() {
  return <CrudPage view={monitorTypeView} />;
}
