import { DebugConsole } from './DebugConsole';

/** /xinde/gateway/debug?id= */
export default function GatewayDebugPage() {
  return <DebugConsole kind="gateway" />;
}
