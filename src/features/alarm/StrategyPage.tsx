import { CrudPage } from '../../crud/CrudPage';
import { strategyView } from './alarmViews';

/** /xinde/alarmnoticestrategy */
export default function StrategyPage() {
  return <CrudPage view={strategyView} />;
}
