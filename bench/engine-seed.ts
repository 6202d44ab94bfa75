/**
 * Stored executions for the lists part of bench/engine.ts, made by SQL generate_series in a few statements
 * (secondary indexes of `executions` and `execution_steps` dropped for the load and rebuilt after it, then
 * VACUUM ANALYZE), all for one member.
 *
 * Shape: `count` executions, one every 3 seconds going back from now, spread round-robin over the member's
 * `workflows` (20 in the bench: a workflow filter keeps 5 %); 92 % succeeded, 5 % failed (with an error
 * object), 2 % cancelled, 1 % running; 70 % started by a mail trigger with a headline (subject from the mail
 * bench's 50-word vocabulary, so a word is in about 6 % of the subjects; sender from 2,000), the rest by a
 * webhook (no headline, small trigger data); finished runs: about 10 % did nothing (`acted` false), the others
 * acted (`acted` null while running). Every `stepsEvery`-th execution has 8 steps, each with input
 * and output data of a few hundred bytes, as a real run leaves them.
 */
import type pg from 'pg';
import { vocabulary } from './mail-seed';

const words = `ARRAY[${vocabulary.map((word) => `'${word}'`).join(',')}]`;
const word = (seed: string) => `(${words})[1 + ((hashint4(${seed})::bigint % 50) + 50) % 50]`;

export const seededStepNodes = ['start', 'tag', 'check', 'shape', 'lookup', 'enrich', 'notify', 'call'] as const;

export async function seedExecutions(
  client: pg.Client,
  options: { memberId: string; workflows: { id: string; versionId: string }[]; count: number; stepsEvery: number },
): Promise<void> {
  const { memberId, workflows, count, stepsEvery } = options;
  const workflowIds = workflows.map((workflow) => workflow.id);
  const versionIds = workflows.map((workflow) => workflow.versionId);
  await client.query(
    `INSERT INTO executions (id, member_id, workflow_id, workflow_version_id, status, simulated, holds_slot, message_headline,
        trigger_type, trigger_node_id, trigger_data, error, working_ms, timeout_ms, created_at, started_at, finished_at, updated_at, acted)
     SELECT gen_random_uuid(), $1::uuid, ($2::uuid[])[1 + j % $4], ($3::uuid[])[1 + j % $4], s.status, false, true,
            CASE WHEN s.mail THEN jsonb_build_object(
              'subject', initcap(${word('j * 7')}) || ' ' || ${word('j * 13 + 3')} || ' ' || ${word('j * 29 + 11')},
              'fromName', 'Sender ' || (j * 13) % 2000,
              'fromEmail', 'user' || (j * 13) % 2000 || '@' || (ARRAY['acme','globex','initech','umbrella'])[1 + j % 4] || '.test') END,
            CASE WHEN s.mail THEN 'mail' ELSE 'webhook' END, 'start',
            CASE WHEN s.mail THEN NULL ELSE jsonb_build_object('index', j, 'amount', j % 1000) END,
            CASE WHEN s.status = 'failed' THEN jsonb_build_object('code', 'http_error', 'message', 'The server answered 503.', 'nodeId', 'call',
              'kind', 'transient', 'attempts', 3, 'nodeType', 'http.request', 'at', to_char((now() - make_interval(secs => j * 3)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) END,
            40 + j % 900, 3600000,
            now() - make_interval(secs => j * 3), now() - make_interval(secs => j * 3) + interval '20 milliseconds',
            CASE WHEN s.status = 'running' THEN NULL ELSE now() - make_interval(secs => j * 3) + make_interval(secs => (40 + j % 900) / 1000.0) END,
            now(),
            CASE WHEN s.status = 'running' THEN NULL ELSE (j / 7) % 10 <> 0 END
       FROM (SELECT j, j % 10 < 7 AS mail,
                    CASE WHEN j % 100 < 92 THEN 'succeeded' WHEN j % 100 < 97 THEN 'failed' WHEN j % 100 < 99 THEN 'cancelled' ELSE 'running' END AS status
               FROM generate_series(1, $5) AS j) s`,
    [memberId, workflowIds, versionIds, workflowIds.length, count],
  );
  // Steps: 8 per chosen execution, in order, each a few hundred bytes of input and output.
  await client.query(
    `INSERT INTO execution_steps (id, execution_id, node_id, node_type, status, attempt, input, output, data, duration_ms, effects, attempts, seq,
        started_at, finished_at)
     SELECT gen_random_uuid(), e.id, n.node, n.type, 'succeeded', 1,
            jsonb_build_object('fields', jsonb_build_array(jsonb_build_object('name', 'index', 'value', n.i)), 'note', repeat('input ', 20)),
            CASE WHEN n.node = 'check' THEN 'true' ELSE 'main' END,
            jsonb_build_object('index', n.i, 'tagged', true, 'subject', e.message_headline->>'subject', 'text', repeat('output ', 40)),
            2 + n.i, CASE WHEN n.node = 'call' THEN '[{"kind": "http", "description": "POST http://127.0.0.1/sink"}]'::jsonb ELSE '[]'::jsonb END,
            '[]'::jsonb, n.i, e.started_at + make_interval(secs => n.i * 0.005), e.started_at + make_interval(secs => n.i * 0.005 + 0.003)
       FROM (SELECT id, started_at, message_headline FROM executions WHERE member_id = $1::uuid AND seq % $2 = 0) e
      CROSS JOIN unnest($3::text[], $4::text[]) WITH ORDINALITY AS n(node, type, i)`,
    [memberId, stepsEvery, seededStepNodes, ['trigger.mail', 'data.set', 'logic.if', 'data.set', 'tables.lookup', 'data.set', 'notify.owner', 'http.request']],
  );
}

/** Secondary indexes of the seeded tables, to drop before the load and rebuild after it. */
export async function executionIndexes(client: pg.Client): Promise<{ name: string; definition: string }[]> {
  const { rows } = await client.query<{ name: string; definition: string }>(
    `SELECT indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE tablename IN ('executions', 'execution_steps') AND indexname NOT LIKE '%_pkey'`,
  );
  return rows;
}
