/** The runner's every-minute job settles an assistant turn whose web process died. */
import { quickAddJob, runOnce } from 'graphile-worker';
import { describe, expect, it } from 'vitest';
import { db } from '../../server/core/db';
import { housekeepingTaskNames } from '../../server/core/jobs/housekeeping-jobs';
import { interruptedError } from '../../server/domains/assistant/sweep';
import { createMember } from '../../server/testing/factories';
import { useTestDatabase } from '../../server/testing/test-database';
import { cronItems } from '../crontab';
import { graphileLogger } from '../graphile-logger';
import { taskList } from './index';

const connectionString = await useTestDatabase();

describe('sweep-assistant-turns', () => {
  it('is scheduled every minute', () => {
    expect(cronItems).toContainEqual(expect.objectContaining({ task: housekeepingTaskNames.sweepAssistantTurns, match: '* * * * *' }));
  });

  it('marks a stale running turn failed with assistant.turn_interrupted, keeping its text', async () => {
    const member = await createMember();
    const conversation = await db().assistantConversation.create({ data: { memberId: member.id, title: 'Left running', status: 'running' } });
    const message = await db().assistantMessage.create({ data: { conversationId: conversation.id, seq: 1, role: 'assistant', content: 'Partial', status: 'streaming' } });
    const longAgo = new Date(Date.now() - 3_600_000);
    await db().$executeRaw`UPDATE assistant_messages SET updated_at = ${longAgo} WHERE id = ${message.id}::uuid`;
    await db().$executeRaw`UPDATE assistant_conversations SET updated_at = ${longAgo} WHERE id = ${conversation.id}::uuid`;

    await quickAddJob({ connectionString, logger: graphileLogger }, housekeepingTaskNames.sweepAssistantTurns, { _cron: { ts: new Date().toISOString(), backfilled: false } });
    await runOnce({ connectionString, taskList, noHandleSignals: true, logger: graphileLogger });

    expect((await db().assistantConversation.findUniqueOrThrow({ where: { id: conversation.id } })).status).toBe('failed');
    expect(await db().assistantMessage.findUniqueOrThrow({ where: { id: message.id } })).toMatchObject({ status: 'failed', content: 'Partial', error: interruptedError });
    const left = await db().$queryRaw<{ count: bigint }[]>`SELECT count(*) AS count FROM graphile_worker.jobs`;
    expect(Number(left[0].count)).toBe(0);
  });
});
