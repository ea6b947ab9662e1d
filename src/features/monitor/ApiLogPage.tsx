import { CrudPage } from '../../crud/CrudPage';
import { apiLogView } from './logViews';

/** /monitor/log/api */
export default function ApiLogPage() {
  return <CrudPage view={apiLogView} />;
}
