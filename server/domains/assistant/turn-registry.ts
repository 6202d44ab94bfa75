/**
 * The turns running in this web process, by conversation: so a cancel aborts its turn at once here, a stopping
 * process settles its own turns (`interruptTurns`), and a test waits for one to end (`turnSettled`). A turn running
 * in another process notices a cancel at its next write instead (./turn.ts).
 */
import { log } from '../../core/log';

const running = new Map<string, { controller: AbortController; done: Promise<void> }>();

export function abortTurn(conversationId: string): void {
  running.get(conversationId)?.controller.abort();
}

/** Why a turn was aborted by `interruptTurns` rather than by the member. */
export const interrupted = Symbol('interrupted');

/**
 * Settles every turn of this process as interrupted (`failed`, `assistant.turn_interrupted`, the text
 * kept), for a web process that is stopping; resolves when they are written or after `waitMs`.
 */
export async function interruptTurns(waitMs = 5_000): Promise<number> {
  const entries = [...running.values()];
  for (const entry of entries) entry.controller.abort(interrupted);
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, waitMs);
    timer.unref();
  });
  await Promise.race([Promise.all(entries.map((entry) => entry.done)), bound]);
  clearTimeout(timer);
  return entries.length;
}

/** Resolves when the conversation's turn in this process has ended (at once when none runs). */
export async function turnSettled(conversationId: string): Promise<void> {
  await running.get(conversationId)?.done;
}

/** Registers the conversation's turn while `run` runs (given the controller that aborts it); a crash is logged. */
export function trackTurn(conversationId: string, run: (controller: AbortController) => Promise<void>): void {
  const controller = new AbortController();
  const entry = { controller, done: Promise.resolve() };
  entry.done = run(controller)
    .catch((error: unknown) => log.error({ err: error, conversationId }, 'assistant: turn crashed'))
    .finally(() => {
      // The next turn may already have registered itself (the conversation went idle just before).
      if (running.get(conversationId) === entry) running.delete(conversationId);
    });
  running.set(conversationId, entry);
}
