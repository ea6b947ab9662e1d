import { CrudPage } from '../../crud/CrudPage';
import { protocolModbusView } from './catalogueViews';

/** /xinde/protocolmodbus */
export default function ProtocolModbusPage() {
  return <CrudPage view={protocolModbusView} />;
}
