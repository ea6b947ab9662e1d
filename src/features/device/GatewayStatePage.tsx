import { CrudPage } from '../../crud/CrudPage';
import { gatewayStateView } from './deviceViews';

/** /xinde/gatewaystate */
export default function GatewayStatePage() {
  return <CrudPage view={gatewayStateView} />;
}
