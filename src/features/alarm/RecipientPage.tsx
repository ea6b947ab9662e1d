import { CrudPage } from '../../crud/CrudPage';
import { recipientView } from './alarmViews';

/** /xinde/alarmrecipient */
export default function RecipientPage() {
  return <CrudPage view={recipientView} />;
}
