import { CrudPage } from '../../crud/CrudPage';
import { tenantPackageView } from './tenantPackageView';

/** /system/tenantpackage */
export default function TenantPackagePage() {
  return <CrudPage view={tenantPackageView} />;
}
