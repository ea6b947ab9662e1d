import { CrudPage } from '../../crud/CrudPage';
import { regionView } from './regionView';

/** /system/region */
export default function RegionPage() {
  return <CrudPage view={regionView} />;
}
