/** A task for a concurrency gate's tests: it starts when the gate lets it, and ends when the test says so. */
export function heldTask() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  let started = false;
  return {
    task: async () => {
      started = true;
      await done;
      return 'ok';
    },
    finish,
    started: () => started,
  };
}
