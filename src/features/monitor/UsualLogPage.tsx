import { CrudPage } from '../../crud/CrudPage';
import { usualLogView } from './logViews';

/** /monitor/log/usual */
export default function UsualLogPage() {
  return <CrudPage view={usualLogView} />;
}
