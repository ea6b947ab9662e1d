import { CrudPage } from '../../crud/CrudPage';
import { postView } from './postView';

/** /system/post */
export default function PostPage() {
  return <CrudPage view={postView} />;
}
