import { CrudPage } from '../../crud/CrudPage';
import { customerView } from './projectViews';

/** /xinde/projectcustomer */
export default function ProjectCustomerPage() {
  return <CrudPage view={customerView} />;
}
