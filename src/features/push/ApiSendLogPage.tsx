import { CrudPage } from '../../crud/CrudPage';
import { apiSendLogView } from './pushViews';

/** /xinde/apisendlog */
export default function ApiSendLogPage() {
  return <CrudPage view={apiSendLogView} />;
}
