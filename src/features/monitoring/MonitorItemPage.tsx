import { CrudPage } from '../../crud/CrudPage';
import { monitorItemView } from './monitoringViews';

/** /xinde/monitoritem */
export default function MonitorItemPage() {
  return <CrudPage view={monitorItemView} />;
}
