import { ScopeScreen } from './ScopeScreen';
import { apiScopeView } from './scopeViews';

/** /authority/apiscope */
export default function ApiScopePage() {
  return <ScopeScreen viewOf={apiScopeView} />;
}
