/**
 * Polling for a positive condition, and a look at what has settled once the callbacks already queued ran; nothing here
 * waits out time to prove that something did not happen.
 */

/** Polls until `check` returns something other than undefined/false, or fails after `ms`. */
export async function until<T>(check: () => Promise<T | undefined | false> | T | undefined | false, ms = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Whether `promise` has settled once every callback already queued has run (no time passes: one turn of the loop). */
export async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}
