import { CrudPage } from '../../crud/CrudPage';
import { modelAgreementView } from './catalogueViews';

/** /xinde/modelagreement */
export default function ModelAgreementPage() {
  return <CrudPage view={modelAgreementView} />;
}
