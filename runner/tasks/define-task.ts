/**
 * A task of the runner: a name, the zod schema of its payload (from server/core/jobs) and a handler
 * that receives the payload already validated. Payloads come from the database as `unknown`.
 */
import type { JobHelpers, Task } from 'graphile-worker';
import type { z } from 'zod';

export interface TaskDefinition {
  name: string;
  task: Task;
}

export function defineTask<Schema extends z.ZodType>(
  name: string,
  payload: Schema,
  handler: (payload: z.infer<Schema>, helpers: JobHelpers) => Promise<void>,
): TaskDefinition {
  const task: Task = async (raw, helpers) => {
    const parsed = payload.safeParse(raw ?? {});
    if (!parsed.success) {
      // A malformed payload is a bug in whoever enqueued it; retrying cannot fix it, so the job is
      // completed with an error in the log rather than retried for days.
      helpers.logger.error(`${name}: invalid payload, job dropped`, { issues: parsed.error.issues });
      return;
    }
    await handler(parsed.data, helpers);
  };
  return { name, task };
}
