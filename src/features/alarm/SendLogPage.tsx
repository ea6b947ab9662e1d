import { CrudPage } from '../../crud/CrudPage';
import { sendLogView } from './alarmViews';

/** /xinde/alarmsendlog */
export default function SendLogPage() {
  return <CrudPage view={sendLogView} />;
}
