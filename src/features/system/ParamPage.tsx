import { CrudPage } from '../../crud/CrudPage';
import { paramView } from './paramView';

/** /system/param */
export default function ParamPage() {
  return <CrudPage view={paramView} />;
}
