import { CrudPage } from '../../crud/CrudPage';
import { ossView } from './ossView';

/** /resource/oss */
export default function OssPage() {
  return <CrudPage view={ossView} />;
}
