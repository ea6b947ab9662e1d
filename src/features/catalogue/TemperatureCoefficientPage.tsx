import { CrudPage } from '../../crud/CrudPage';
import { temperatureCoefficientView } from './catalogueViews';

/** /xinde/temperaturecoefficient */
export default function TemperatureCoefficientPage() {
  return <CrudPage view={temperatureCoefficientView} />;
}
