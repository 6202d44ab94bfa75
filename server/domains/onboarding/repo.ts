/** What the "Get started" list reads: facts of what exists, never stored. */
import { db } from '../../core/db';

export interface FactsRow {
  mailbox: boolean;
  evaluation: boolean;
  published: boolean;
  invitation: boolean;
}

/** One statement of four EXISTS probes, each stopping at its first row (indexed by member). */
export async function readFacts(memberId: string): Promise<FactsRow> {
  const rows = await db().$queryRaw<FactsRow[]>`
    SELECT EXISTS (SELECT 1 FROM mailboxes WHERE member_id = ${memberId}::uuid) AS mailbox,
           EXISTS (SELECT 1 FROM eval_runs WHERE member_id = ${memberId}::uuid) AS evaluation,
           EXISTS (SELECT 1 FROM workflows WHERE member_id = ${memberId}::uuid AND published_version_id IS NOT NULL) AS published,
           EXISTS (SELECT 1 FROM invitations) AS invitation`;
  return rows[0];
}
