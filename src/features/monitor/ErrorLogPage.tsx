import { CrudPage } from '../../crud/CrudPage';
import { errorLogView } from './logViews';

/** /monitor/log/error */
export default function ErrorLogPage() {
  return <CrudPage view={errorLogView} />;
}
