import { CrudPage } from '../../crud/CrudPage';
import { noticeView } from './noticeView';

/** /desk/notice */
export default function NoticePage() {
  return <CrudPage view={noticeView} />;
}
