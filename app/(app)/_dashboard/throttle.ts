/**
 * At most one call per `intervalMs`: the first call runs at once, calls during the pause are folded
 * into one that runs when it ends (so the last event is never lost). Live refreshes of the
 * dashboard use it: a burst of finished runs costs one re-read every few seconds, not one each.
 */
export function throttle(fn: () => void, intervalMs: number) {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const run = () => {
    timer = null;
    last = Date.now();
    fn();
  };
  const call = () => {
    if (timer) return;
    const wait = last + intervalMs - Date.now();
    if (wait <= 0) run();
    else timer = setTimeout(run, wait);
  };
  call.cancel = () => {
    if (timer) clearTimeout(timer);
    timer = null;
  };
  return call;
}
