import { CrudPage } from '../../crud/CrudPage';
import { categoryView } from './projectViews';

/** /xinde/projectcategory */
export default function ProjectCategoryPage() {
  return <CrudPage view={categoryView} />;
}
