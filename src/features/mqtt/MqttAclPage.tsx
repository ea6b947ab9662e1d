import { CrudPage } from '../../crud/CrudPage';
import { mqttAclView } from './mqttViews';

/** /xinde/mqttacl */
export default function MqttAclPage() {
  return <CrudPage view={mqttAclView} />;
}
