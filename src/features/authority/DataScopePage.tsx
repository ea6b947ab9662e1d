import { ScopeScreen } from './ScopeScreen';
import { dataScopeView } from './scopeViews';

/** /authority/datascope */
export default function DataScopePage() {
  return <ScopeScreen viewOf={dataScopeView} />;
}
