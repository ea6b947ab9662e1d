import { closeRedis } from '../cache';
import { ANY_TABLE, type EventBus } from '../events';

/** The Redis channel that carries table changes between the processes of a deployment. */
const CHANNEL = 'vigil:changed';

interface Relayed {
  /** The process that published it: its own messages come back to it and are skipped. */
  origin: string;
  table: string;
}

export interface Relay {
  close(): Promise<void>;
}

/**
 * Carries `changed` events between the processes of a deployment over Redis pub/sub (docs/operations.md), so every
 * cache that follows a table (rights, scopes, display links, revocations, the ingest directory, the collection
 * strategies' timers…) follows a change made through any process within milliseconds. A change relayed from another
 * process is emitted here like a local one but not published again.
 */
export async function startRelay(events: EventBus, redisUrl: string, origin: string, onError: (error: unknown) => void): Promise<Relay> {
  const { createClient } = await import('redis');
  const publisher = createClient({ url: redisUrl });
  const subscriber = publisher.duplicate();
  for (const client of [publisher, subscriber]) client.on('error', onError);
  // Changes published while this process could not hear them are unknown: after a reconnect every cache starts over.
  let heard = false;
  subscriber.on('ready', () => {
    if (heard) events.emit('changed', ANY_TABLE);
    heard = true;
  });
  await Promise.all([publisher.connect(), subscriber.connect()]);
  let relaying = false;
  await subscriber.subscribe(CHANNEL, (message) => {
    const relayed = JSON.parse(message) as Relayed;
    if (relayed.origin === origin) return;
    relaying = true;
    try {
      events.emit('changed', relayed.table);
    } finally {
      relaying = false;
    }
  });
  const publish = (table: string) => {
    if (relaying) return;
    publisher.publish(CHANNEL, JSON.stringify({ origin, table } satisfies Relayed)).catch(onError);
  };
  events.on('changed', publish);
  return {
    close: async () => {
      events.off('changed', publish);
      await Promise.all([subscriber, publisher].map(closeRedis));
    },
  };
}
