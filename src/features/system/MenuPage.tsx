import { CrudPage } from '../../crud/CrudPage';
import { menuView } from './menuView';

/** /system/menu */
export default function MenuPage() {
  return <CrudPage view={menuView} />;
}
