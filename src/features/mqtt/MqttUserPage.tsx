import { CrudPage } from '../../crud/CrudPage';
import { mqttUserView } from './mqttViews';

/** /xinde/mqttuser */
export default function MqttUserPage() {
  return <CrudPage view={mqttUserView} />;
}
