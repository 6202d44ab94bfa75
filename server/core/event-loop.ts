/**
 * Long synchronous loops over request data (tens of thousands of rows) hand the event loop back
 * every so often, so other requests are served meanwhile: `nextTurn()` resolves after the loop has
 * run its pending I/O callbacks and timers (setImmediate), not merely after other promises.
 */
import { setImmediate } from 'node:timers/promises';

export function nextTurn(): Promise<void> {
  return setImmediate();
}
