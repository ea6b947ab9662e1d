import { CrudPage } from '../../crud/CrudPage';
import { deptView } from './deptView';

/** /system/dept */
export default function DeptPage() {
  return <CrudPage view={deptView} />;
}
