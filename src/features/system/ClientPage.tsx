import { CrudPage } from '../../crud/CrudPage';
import { clientView } from './clientView';

/** /system/client */
export default function ClientPage() {
  return <CrudPage view={clientView} />;
}
