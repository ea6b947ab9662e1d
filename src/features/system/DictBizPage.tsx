import { dictBiz } from '../../../resources/system/dict-biz';
import { DictionaryScreen } from './DictionaryScreen';

/** /system/dictbiz: business dictionaries, kept per tenant. */
export default function DictBizPage() {
  return <DictionaryScreen resource={dictBiz} />;
}
