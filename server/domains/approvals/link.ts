/**
 * The emailed link (GET/POST /api/v1/approvals/t/{token}/{decision}). A GET never decides: mail
 * gateways' link scanners and previews fetch every link in a message, so a GET only shows the
 * approval and a confirmation form; the POST of that form decides. The POST must carry the page
 * token the GET put in the form (./tokens.ts) and come from our own page (the route checks
 * Origin / Sec-Fetch-Site). The link token is single use: once the approval is decided (here or in
 * the application), expired or cancelled, the link only shows what holds.
 */
import type { Approval } from '../../generated/prisma/client';
import { db } from '../../core/db';
import { decideLocked, isOpen, lockApproval, type Decision } from './decide';
import { findByLinkTokenHash } from './repo';
import { checkPageToken, hashLinkToken, isLinkTokenShape, issuePageToken } from './tokens';

export interface LinkApproval {
  title: string;
  details: string | null;
  workflowName: string;
  status: 'pending' | 'approved' | 'rejected' | 'expired';
  /** `expired` (deadline) or `cancelled` (the run was cancelled) when expired. */
  reason: string | null;
  decidedBy: string | null;
  decidedAt: Date | null;
  expiresAt: Date;
}

export type LinkView =
  | { kind: 'not_found' }
  /** Open: the confirmation form (its page token). */
  | { kind: 'confirm'; approval: LinkApproval; decision: Decision; pageToken: string }
  /** This request decided it. */
  | { kind: 'decided'; approval: LinkApproval; decision: Decision }
  /** Decided before, expired or cancelled: what holds. */
  | { kind: 'closed'; approval: LinkApproval }
  /** A POST without a valid page token (a stale page, a forged form). */
  | { kind: 'refused'; approval: LinkApproval; decision: Decision };

function view(row: Approval, now = new Date()): LinkApproval {
  const lapsed = row.status === 'pending' && row.expiresAt.getTime() <= now.getTime();
  return {
    title: row.title,
    details: row.details,
    workflowName: row.workflowName,
    status: lapsed ? 'expired' : (row.status as LinkApproval['status']),
    reason: lapsed ? 'expired' : row.reason,
    decidedBy: row.decidedBy,
    decidedAt: row.decidedAt,
    expiresAt: row.expiresAt,
  };
}

function decisionOf(value: string): Decision | null {
  return value === 'approve' || value === 'reject' ? value : null;
}

async function findByToken(token: string): Promise<Approval | null> {
  if (!isLinkTokenShape(token)) return null;
  return findByLinkTokenHash(hashLinkToken(token));
}

/** The GET: shows, never decides. */
export async function showLink(token: string, rawDecision: string): Promise<LinkView> {
  const decision = decisionOf(rawDecision);
  const row = decision ? await findByToken(token) : null;
  if (!row || !decision) return { kind: 'not_found' };
  if (!isOpen(row)) return { kind: 'closed', approval: view(row) };
  return { kind: 'confirm', approval: view(row), decision, pageToken: issuePageToken(row.linkTokenHash!, decision) };
}

/** The approver as far as we know them: the one address the email went to, else `email link`. */
function approverOf(row: Approval): string {
  return row.approverEmails.length === 1 ? row.approverEmails[0] : 'email link';
}

/** The POST of the confirmation form: decides once. */
export async function decideByLink(token: string, rawDecision: string, pageToken: string | null): Promise<LinkView> {
  const decision = decisionOf(rawDecision);
  const found = decision ? await findByToken(token) : null;
  if (!found || !decision) return { kind: 'not_found' };
  if (!checkPageToken(pageToken, found.linkTokenHash!, decision)) {
    return isOpen(found) ? { kind: 'refused', approval: view(found), decision } : { kind: 'closed', approval: view(found) };
  }
  return db().$transaction(async (tx): Promise<LinkView> => {
    const row = await lockApproval(tx, found.id);
    if (!row) return { kind: 'not_found' };
    const outcome = await decideLocked(tx, row, decision, { via: 'link', decidedBy: approverOf(row), auditBy: 'system' });
    if (outcome.kind === 'closed') return { kind: 'closed', approval: view(outcome.row) };
    return { kind: 'decided', approval: view(outcome.row), decision };
  });
}
