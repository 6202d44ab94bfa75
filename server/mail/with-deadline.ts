/** Runs `work` with an overall deadline; on expiry `onTimeout` runs (close the client) and the promise rejects. */
export async function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => void, timeoutError: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(timeoutError());
    }, ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
    // The losing side may still settle later; nobody awaits it.
    work.catch(() => {});
  }
}
