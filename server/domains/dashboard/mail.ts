import type { AuthenticatedActor } from '../../core/auth/access';
import { db } from '../../core/db';
import { journalOutcomes } from '../journal';
import { resolveAudience } from './audience';
import { mailFiguresSql } from './mail-sql';
import { readFigures } from './repo';
import type { DashboardQuery } from './query';
import type { MailFigures } from './schemas';
import { onBuckets, presentWindow, resolveWindow } from './window';

interface JournalRow {
  current: boolean;
  start: Date | null;
  outcome: string;
  entries: number;
  automated: number;
}

interface OutboundRow {
  drafts_current: number;
  drafts_previous: number;
  sent_current: number;
  sent_previous: number;
}

/**
 * The mail figures: the journal's new mail and its outcomes, automated mail, workflows' drafts and sends (rules:
 * mail-sql.ts). `statements` is the rollup-reading builder; the agreement test passes the raw one.
 */
export async function mailFigures(actor: AuthenticatedActor, query: DashboardQuery, statements = mailFiguresSql): Promise<MailFigures> {
  const audience = resolveAudience(actor, query);
  const window = await resolveWindow(db(), query);
  const [journal, outbound] = statements(window, audience);
  const [journalRows, [counts]] = await Promise.all([
    readFigures<JournalRow>(journal!),
    readFigures<OutboundRow>(outbound!),
  ]);
  const totals = (current: boolean) => {
    const rows = journalRows.filter((row) => row.current === current);
    const byOutcome = journalOutcomes.map((outcome) => ({ outcome, count: rows.filter((row) => row.outcome === outcome).reduce((sum, row) => sum + row.entries, 0) }));
    return {
      received: rows.reduce((sum, row) => sum + row.entries, 0),
      byOutcome,
      automatedEmails: rows.reduce((sum, row) => sum + row.automated, 0),
      draftsPrepared: (current ? counts?.drafts_current : counts?.drafts_previous) ?? 0,
      sentByWorkflows: (current ? counts?.sent_current : counts?.sent_previous) ?? 0,
    };
  };
  const inWindow = journalRows.filter((row): row is JournalRow & { start: Date } => row.current && row.start !== null);
  return {
    window: presentWindow(window),
    current: totals(true),
    previous: totals(false),
    series: {
      received: onBuckets(window, inWindow, (row) => row.entries),
      dispatched: onBuckets(window, inWindow, (row) => (row.outcome === 'dispatched' ? row.entries : 0)),
    },
  };
}
