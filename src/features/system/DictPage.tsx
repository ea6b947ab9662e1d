import { dict } from '../../../resources/system/dict';
import { DictionaryScreen } from './DictionaryScreen';

/** /system/dict: system dictionaries. */
export default function DictPage() {
  return <DictionaryScreen resource={dict} />;
}
