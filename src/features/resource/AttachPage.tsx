import { CrudPage } from '../../crud/CrudPage';
import { attachView } from './attachView';

/** /resource/attach */
export default function AttachPage() {
  return <CrudPage view={attachView} />;
}
