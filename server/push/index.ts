import type { LatestValues } from '../ingest/latest';
import type { StoredReading } from '../ingest/types';
import { outboundGuard } from '../net/outbound';
import type { Platform } from '../platform';
import { BindingBook } from './bindings';
import { Forwarder } from './forwarder';
import { SendLog } from './sendlog';
import { Sender } from './transport';

/** Onward data (docs/push.md): the forwarder behind `readings`, its binding cache and the latest values it reads. */
export interface Push {
  forwarder: Forwarder;
  bindings: BindingBook;
  latest: LatestValues;
  /** Resolves when every reading handed over so far is queued or sent, and the log is written. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

const running = new WeakMap<Platform, Push>();

export function startPush(platform: Platform, latest: LatestValues): Push {
  const bindings = new BindingBook(platform.db, platform.events, platform.secrets);
  const forwarder = new Forwarder(platform, bindings, new Sender(outboundGuard(platform.config.outbound)), new SendLog(platform));
  const onReadings = (batch: readonly StoredReading[]) => forwarder.accept(batch);
  platform.events.on('readings', onReadings);
  const push: Push = {
    forwarder,
    bindings,
    latest,
    idle: () => forwarder.idle(),
    stop: async () => {
      platform.events.off('readings', onReadings);
      running.delete(platform);
      await forwarder.stop();
    },
  };
  running.set(platform, push);
  return push;
}

/**
 * The push side of a running server, for the module's calls (registered before it starts, like the broker). The
 * routes are built from the platform alone, so the one forwarder per platform is found here.
 */
export function pushOf(platform: Platform): Push {
  const push = running.get(platform);
  if (!push) throw new Error('push forwarder is not running');
  return push;
}
