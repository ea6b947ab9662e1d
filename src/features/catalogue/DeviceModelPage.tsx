import { CrudPage } from '../../crud/CrudPage';
import { deviceModelView } from './catalogueViews';

/** /xinde/devicemodel */
export default function DeviceModelPage() {
  return <CrudPage view={deviceModelView} />;
}
