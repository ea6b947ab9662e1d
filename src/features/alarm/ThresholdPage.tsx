import { CrudPage } from '../../crud/CrudPage';
import { thresholdView } from './alarmViews';

/** /xinde/devicethreshold */
export default function ThresholdPage() {
  return <CrudPage view={thresholdView} />;
}
