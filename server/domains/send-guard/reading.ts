/**
 * What the guard reads about one send, as one batch of statements that do not depend on one another
 * (core/db/statement-batch.ts): the reasons of the holds the item was released from, the open holds it could join,
 * and the counts of the rules it may be subject to, each from its window's start. The same texts run one after
 * another in a Prisma transaction (evaluate.ts, the pipeline's full claim) or in one round trip on the pipeline's
 * own connection (its quick claim): the guard's verdict is one definition whichever way its transaction is held.
 *
 * Read under the scopes' advisory locks (repo.ts `lockScopes`, or the quick claim's lock statements, which take the
 * same keys), each statement after them: a send counted or a hold opened by the claim before is seen.
 *
 * A send counts when its row is `done` or `running`, at the instant it went (sent, else started); the item judged
 * never counts itself. A rule's window starts `windowMs` ago, or at the last release of a hold of that rule and scope
 * if later (the member said those sends were fine, so a release does not trip again at once on the same history).
 * The counts read are those of the rules the item is subject to before its releases; a rule it was released from is
 * dropped once the releases are known.
 */
import type { BoundStatement, StatementBatchRunner } from '../../core/db/statement-batch';
import type { OutboundMessage } from '../../generated/prisma/client';
import { applicableRules, bareAddress, decideTrip, isHumanSend, workflowCap, workflowHoldReasons, type GuardFacts, type GuardLimits, type HoldReason, type Trip } from './rules';

/** What the guard needs of the item. */
export type GuardedItem = Pick<
  OutboundMessage,
  'id' | 'memberId' | 'mailboxId' | 'workflowId' | 'origin' | 'reviewStatus' | 'relation' | 'relatedMessageId' | 'toAddrs' | 'ccAddrs' | 'bccAddrs'
>;

export interface GuardReading {
  /** The oldest open hold the item joins, or null. */
  joinableHoldId: string | null;
  /** The first rule the counts trip (no joinable hold), or null: the item may go. */
  trip: Trip | null;
}

const hourMs = 60 * 60 * 1000;

/** A send's instant for the windows: sent, else started, else its row's last change. */
const sentInstant = 'coalesce(o.sent_at, o.send_started_at, o.updated_at)';
const counted = `o.id <> $2::uuid AND o.send_status IN ('done', 'running')`;
/** A recipient written `Name <a@b>` or `a@b`, bare and lower-case (rules.ts `bareAddress`). */
const bareRecipient = `lower(btrim(regexp_replace(a.addr, '^.*<([^<>]*)>\\s*$', '\\1')))`;

export const guardStatements = {
  released: {
    text: `SELECT coalesce(array_agg(DISTINCT j.reason), '{}') AS reasons FROM sending_journal j
            WHERE j.outbound_id = $1::uuid AND j.event = 'released' AND j.reason IS NOT NULL`,
    parameterTypes: ['uuid'],
  },
  /** Open holds of the mailbox's cap and of the workflow, oldest first; the item's releases choose among them. */
  openHolds: {
    text: `SELECT h.id, h.reason FROM send_holds h
            WHERE h.member_id = $1::uuid AND h.released_at IS NULL
              AND ((h.mailbox_id = $2::uuid AND h.workflow_id IS NULL AND h.reason = 'mailbox_hourly_cap') OR h.workflow_id = $3::uuid)
            ORDER BY h.created_at, h.id`,
    parameterTypes: ['uuid', 'uuid', 'uuid'],
  },
  mailboxSends: {
    text: `SELECT count(*)::int AS n FROM outbound_messages o
            WHERE o.mailbox_id = $1::uuid AND ${counted}
              AND ${sentInstant} >= greatest($3::timestamptz, (SELECT max(h.released_at) FROM send_holds h
                    WHERE h.mailbox_id = $1::uuid AND h.workflow_id IS NULL AND h.reason = 'mailbox_hourly_cap'))`,
    parameterTypes: ['uuid', 'uuid', 'timestamptz'],
  },
  /** The workflow's sends, with its settings (its own cap may be there). */
  workflowSends: {
    text: `SELECT (SELECT w.settings FROM workflows w WHERE w.id = $1::uuid) AS settings, count(*)::int AS n FROM outbound_messages o
            WHERE o.workflow_id = $1::uuid AND ${counted}
              AND ${sentInstant} >= greatest($3::timestamptz, (SELECT max(h.released_at) FROM send_holds h
                    WHERE h.workflow_id = $1::uuid AND h.reason = 'workflow_hourly_cap'))`,
    parameterTypes: ['uuid', 'uuid', 'timestamptz'],
  },
  /**
   * The loop: the sender of the answered message when it is automatic mail (an auto-reply, or a delivery report: a
   * bounce answers itself as surely as a vacation reply), and the mailbox's automated sends (not the member's
   * webmail, not reviewed by a human) to that sender in the window. No row: not automatic mail, or no sender.
   */
  loop: {
    text: `WITH counterpart AS (
             SELECT lower(btrim(m.from_email, E' \\t\\r\\n')) AS address FROM mail_messages m
              WHERE m.id = $5::uuid AND m.mailbox_id = $1::uuid AND (m.is_auto_reply OR m.is_delivery_report)
                AND btrim(coalesce(m.from_email, ''), E' \\t\\r\\n') <> '')
           SELECT c.address AS counterpart, (SELECT count(*)::int FROM outbound_messages o
            WHERE o.mailbox_id = $1::uuid AND ${counted} AND o.origin <> 'webmail' AND o.review_status = 'none'
              AND ${sentInstant} >= greatest($3::timestamptz, (SELECT max(h.released_at) FROM send_holds h
                    WHERE h.workflow_id = $4::uuid AND h.reason = 'auto_reply_loop'))
              AND EXISTS (SELECT 1 FROM unnest(o.to_addrs || o.cc_addrs || o.bcc_addrs) AS a(addr) WHERE ${bareRecipient} = c.address)) AS n
             FROM counterpart c`,
    parameterTypes: ['uuid', 'uuid', 'timestamptz', 'uuid', 'uuid'],
  },
  /** Of the item's recipients (a JSON list), the one the workflow sent to most in the window without a human's review. */
  repeat: {
    text: `SELECT r.recipient, count(DISTINCT o.id)::int AS n
             FROM outbound_messages o
             CROSS JOIN LATERAL (SELECT ${bareRecipient} AS recipient FROM unnest(o.to_addrs || o.cc_addrs || o.bcc_addrs) AS a(addr)) r
            WHERE o.workflow_id = $1::uuid AND ${counted} AND o.review_status = 'none'
              AND ${sentInstant} >= greatest($3::timestamptz, (SELECT max(h.released_at) FROM send_holds h
                    WHERE h.workflow_id = $1::uuid AND h.reason = 'repeat_recipient'))
              AND r.recipient IN (SELECT jsonb_array_elements_text($4::jsonb))
            GROUP BY r.recipient
            ORDER BY n DESC, r.recipient
            LIMIT 1`,
    parameterTypes: ['uuid', 'uuid', 'timestamptz', 'jsonb'],
  },
} as const;

type Part = 'released' | 'openHolds' | HoldReason;

/** The batch for this item: releases, open holds, and a count per rule it may be subject to. */
function guardBatch(item: GuardedItem, limits: GuardLimits, now: Date): { parts: Part[]; batch: BoundStatement[] } {
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const parts: Part[] = ['released', 'openHolds'];
  const batch: BoundStatement[] = [
    { statement: guardStatements.released, values: [item.id] },
    { statement: guardStatements.openHolds, values: [item.memberId, item.mailboxId, item.workflowId] },
  ];
  for (const rule of applicableRules(item)) {
    if (rule === 'mailbox_hourly_cap') batch.push({ statement: guardStatements.mailboxSends, values: [item.mailboxId, item.id, ago(hourMs)] });
    else if (rule === 'workflow_hourly_cap') batch.push({ statement: guardStatements.workflowSends, values: [item.workflowId, item.id, ago(hourMs)] });
    else if (rule === 'auto_reply_loop') {
      if (!item.relatedMessageId) continue;
      batch.push({ statement: guardStatements.loop, values: [item.mailboxId, item.id, ago(limits.loopWindowMinutes * 60_000), item.workflowId, item.relatedMessageId] });
    } else {
      const recipients = [...new Set([...item.toAddrs, ...item.ccAddrs, ...item.bccAddrs].map(bareAddress).filter((address) => address.length > 0))];
      if (recipients.length === 0) continue;
      batch.push({ statement: guardStatements.repeat, values: [item.workflowId, item.id, ago(hourMs), JSON.stringify(recipients)] });
    }
    parts.push(rule);
  }
  return { parts, batch };
}

/** Reads what the guard needs (under the scopes' locks) and answers the hold the item joins or the rule it trips. */
export async function readGuard(item: GuardedItem, limits: GuardLimits, run: StatementBatchRunner, now: Date = new Date()): Promise<GuardReading> {
  const { parts, batch } = guardBatch(item, limits, now);
  const answers = await run(batch);
  const rows = (part: Part) => answers[parts.indexOf(part)] ?? [];
  const released = new Set((rows('released')[0]?.reasons as string[] | undefined) ?? []);

  const joinable = rows('openHolds').find((hold) => {
    const reason = hold.reason as HoldReason;
    if (released.has(reason)) return false;
    if (reason === 'mailbox_hourly_cap') return true;
    return item.workflowId !== null && !isHumanSend(item) && workflowHoldReasons.includes(reason);
  });
  if (joinable) return { joinableHoldId: joinable.id as string, trip: null };

  const rules = applicableRules(item, released);
  const facts: GuardFacts = {};
  for (const rule of rules) {
    const row = rows(rule)[0];
    if (rule === 'mailbox_hourly_cap') facts.mailboxSends = Number(row?.n ?? 0);
    else if (rule === 'workflow_hourly_cap') {
      facts.workflowCap = workflowCap(row?.settings, limits.workflowPerHour);
      facts.workflowSends = Number(row?.n ?? 0);
    } else if (rule === 'auto_reply_loop') {
      if (row) facts.loop = { counterpart: row.counterpart as string, sends: Number(row.n) };
    } else if (row) facts.repeat = { recipient: row.recipient as string, sends: Number(row.n) };
  }
  return { joinableHoldId: null, trip: decideTrip(rules, facts, limits) };
}
