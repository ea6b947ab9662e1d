import { EventEmitter } from 'node:events';

/** In-process notifications between parts of the server; caches listen for the tables they mirror. */
export interface ServerEvents {
  /** Rows of a table were inserted, updated or deleted. */
  changed: [table: string];
}

export class EventBus extends EventEmitter<ServerEvents> {
  constructor() {
    super();
    this.setMaxListeners(0); // one listener per repository and cache, by design
  }
}
