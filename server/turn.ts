/** Resolves after the event loop's next turn: long work let through sockets and timers waiting meanwhile. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
