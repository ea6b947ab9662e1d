import { outboundGuard } from '../net/outbound';
import type { Platform } from '../platform';
import { ThirdBindings } from './bindings';
import { ThirdConnections } from './connections';
import { type PullerOptions, type StoreReadings, ThirdPuller } from './puller';
import { ThirdSync } from './sync';

/** Third-party platforms (docs/third-party.md): the adapters' connections, bindings, sync, and the puller. */
export interface Third {
  connections: ThirdConnections;
  bindings: ThirdBindings;
  sync: ThirdSync;
  puller: ThirdPuller;
}

/** `store` is how pulled readings enter the series: the ingestion pipeline's `acceptStored`. */
export function createThird(platform: Platform, store: StoreReadings, pullerOptions?: PullerOptions): Third {
  const connections = new ThirdConnections(outboundGuard(platform.config.outbound), platform.secrets);
  const bindings = new ThirdBindings(platform, connections);
  return { connections, bindings, sync: new ThirdSync(platform, bindings), puller: new ThirdPuller(platform, store, connections, pullerOptions) };
}
