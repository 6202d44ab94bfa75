/**
 * The analyzer's statistics and sender groups, set-based SQL over the mirror (`mail_messages`) and
 * the messages journal (`mail_journal_entries`): no per-message loop.
 *
 * Definitions (ours where the spec is silent):
 * - `received30d`: journal entries of the mailbox over 30 days (every new mail dispatch looked at);
 *   `excluded30d`: those excluded by an exclusion (`excluded_org`, `excluded_member`);
 *   `unmatched30d` and `dispatched30d`: those outcomes.
 * - `messages30d/90d/365d`: mirrored incoming messages (not sent, not drafts, not from the mailbox
 *   itself) received over that many days.
 * - `senders`, `domains`, `peakHours` (UTC hours) and the groups look at the report's window.
 * - Groups: mail of one sender domain, mail of one mailing list (the mirrored, normalised List-Id:
 *   `list:<id>`, labelled with the id), and mail of one subject pattern (the subject without
 *   `Re:`/`Fwd:` prefixes, lower-cased, digits as `#`), with at least `minGroupVolume` messages over
 *   the window; the largest `maxGroupsPerKind` of each kind are kept; `groups` counts them all. A
 *   message may be in one group of each kind.
 * - A group's `mailingListShare` counts list mail and bulk mail (`is_mailing_list OR is_bulk`): what
 *   a trigger's `includeMailingLists` lets through, so a proposal for a newsletter group includes it.
 */
import { Prisma } from '../../../generated/prisma/client';
import type { Tx } from '../../../core/db';
import { analyzerBounds, type SenderGroup } from '../schemas';

type Reader = Pick<Tx, '$queryRaw'>;
const day = 86_400_000;

export interface StatisticsInput {
  mailboxId: string;
  windowDays: number;
  minGroupVolume: number;
  now: Date;
}

export interface Statistics {
  received30d: number;
  excluded30d: number;
  unmatched30d: number;
  dispatched30d: number;
  messages30d: number;
  messages90d: number;
  messages365d: number;
  senders: number;
  domains: number;
  peakHours: { hour: number; volume: number }[];
}

const incoming = Prisma.sql`NOT sent AND NOT draft AND NOT is_from_self`;

export async function computeStatistics(tx: Reader, input: StatisticsInput): Promise<Statistics> {
  const since = (days: number) => new Date(input.now.getTime() - days * day);
  const windowStart = since(input.windowDays);
  const oldest = since(Math.max(365, input.windowDays));
  const [counts] = await tx.$queryRaw<Record<string, bigint>[]>`
    SELECT count(*) FILTER (WHERE received_at >= ${since(30)}) AS messages30d,
           count(*) FILTER (WHERE received_at >= ${since(90)}) AS messages90d,
           count(*) FILTER (WHERE received_at >= ${since(365)}) AS messages365d,
           count(DISTINCT lower(from_email)) FILTER (WHERE received_at >= ${windowStart} AND from_email IS NOT NULL) AS senders,
           count(DISTINCT lower(split_part(from_email, '@', 2))) FILTER (WHERE received_at >= ${windowStart} AND from_email LIKE '%@%') AS domains
    FROM mail_messages
    WHERE mailbox_id = ${input.mailboxId}::uuid AND received_at >= ${oldest} AND received_at <= ${input.now} AND ${incoming}`;
  const [journal] = await tx.$queryRaw<Record<string, bigint>[]>`
    SELECT count(*) AS received,
           count(*) FILTER (WHERE outcome IN ('excluded_org', 'excluded_member')) AS excluded,
           count(*) FILTER (WHERE outcome = 'unmatched') AS unmatched,
           count(*) FILTER (WHERE outcome = 'dispatched') AS dispatched
    FROM mail_journal_entries
    WHERE mailbox_id = ${input.mailboxId}::uuid AND created_at >= ${since(30)} AND created_at <= ${input.now}`;
  const hours = await tx.$queryRaw<{ hour: number; volume: bigint }[]>`
    SELECT extract(hour FROM received_at AT TIME ZONE 'UTC')::int AS hour, count(*) AS volume
    FROM mail_messages
    WHERE mailbox_id = ${input.mailboxId}::uuid AND received_at >= ${windowStart} AND received_at <= ${input.now} AND ${incoming}
    GROUP BY 1`;
  const byHour = new Map(hours.map((row) => [Number(row.hour), Number(row.volume)]));
  return {
    received30d: Number(journal?.received ?? 0),
    excluded30d: Number(journal?.excluded ?? 0),
    unmatched30d: Number(journal?.unmatched ?? 0),
    dispatched30d: Number(journal?.dispatched ?? 0),
    messages30d: Number(counts?.messages30d ?? 0),
    messages90d: Number(counts?.messages90d ?? 0),
    messages365d: Number(counts?.messages365d ?? 0),
    senders: Number(counts?.senders ?? 0),
    domains: Number(counts?.domains ?? 0),
    peakHours: Array.from({ length: 24 }, (_, hour) => ({ hour, volume: byHour.get(hour) ?? 0 })),
  };
}

/**
 * The distinct messages of some groups over the window: an opportunity's evidence. Its domain, list and
 * subject-pattern groups often hold the same mail (a newsletter's letters), so their volumes are not
 * added. A group of a kind this count does not read adds its volume.
 */
export async function countGroupMessages(tx: Reader, input: StatisticsInput, groups: readonly Pick<SenderGroup, 'key' | 'volume'>[]): Promise<number> {
  const valuesOf = (kind: string) => groups.filter((group) => group.key.startsWith(`${kind}:`)).map((group) => group.key.slice(kind.length + 1));
  const domains = valuesOf('domain');
  const lists = valuesOf('list');
  const patterns = valuesOf('subject');
  const read = (key: string) => ['domain:', 'list:', 'subject:'].some((prefix) => key.startsWith(prefix));
  const others = groups.filter((group) => !read(group.key)).reduce((sum, group) => sum + group.volume, 0);
  if (domains.length === 0 && lists.length === 0 && patterns.length === 0) return others;
  const windowStart = new Date(input.now.getTime() - input.windowDays * day);
  const [row] = await tx.$queryRaw<{ messages: bigint }[]>`
    SELECT count(*) AS messages
    FROM mail_messages
    WHERE mailbox_id = ${input.mailboxId}::uuid AND received_at >= ${windowStart} AND received_at <= ${input.now} AND ${incoming}
      AND ((from_email LIKE '%@%' AND ${senderDomain} = ANY(${domains}::text[]))
        OR list_id = ANY(${lists}::text[])
        OR (subject IS NOT NULL AND ${subjectPattern} = ANY(${patterns}::text[])))`;
  return Number(row?.messages ?? 0) + others;
}

interface GroupRow {
  label: string;
  volume: number;
  senders: number;
  top_senders: string[];
  sample_subjects: string[] | null;
  mailing_list_share: number;
  no_reply_share: number;
  attachment_share: number;
  total_groups: bigint;
}

/** The subject pattern of a message, in SQL. */
const subjectPattern = Prisma.sql`left(trim(regexp_replace(lower(regexp_replace(coalesce(subject, ''), '^\\s*((re|fwd?|tr|aw|wg)\\s*(\\[[0-9]+\\])?\\s*:\\s*)+', '', 'i')), '[0-9]+', '#', 'g')), 80)`;
const senderDomain = Prisma.sql`lower(split_part(from_email, '@', 2))`;

const groupKeys = {
  domain: { key: senderDomain, keep: Prisma.sql`from_email LIKE '%@%'` },
  list: { key: Prisma.sql`list_id`, keep: Prisma.sql`list_id IS NOT NULL` },
  subject: { key: subjectPattern, keep: Prisma.sql`subject IS NOT NULL AND length(${subjectPattern}) >= 4` },
} as const;

async function groupsBy(tx: Reader, input: StatisticsInput, kind: SenderGroup['kind']): Promise<{ groups: SenderGroup[]; total: number }> {
  const { key: keyOf, keep } = groupKeys[kind];
  const windowStart = new Date(input.now.getTime() - input.windowDays * day);
  const rows = await tx.$queryRaw<GroupRow[]>`
    WITH m AS (
      SELECT ${keyOf} AS g, lower(from_email) AS email, subject, received_at, (is_mailing_list OR is_bulk) AS list_or_bulk, is_no_reply, has_attachments
      FROM mail_messages
      WHERE mailbox_id = ${input.mailboxId}::uuid AND received_at >= ${windowStart} AND received_at <= ${input.now} AND ${incoming} AND ${keep}
    ),
    g AS (
      SELECT g, count(*)::int AS volume, count(DISTINCT email)::int AS senders,
             avg(list_or_bulk::int)::float8 AS mailing_list_share, avg(is_no_reply::int)::float8 AS no_reply_share,
             avg(has_attachments::int)::float8 AS attachment_share, count(*) OVER () AS total_groups
      FROM m GROUP BY g HAVING count(*) >= ${input.minGroupVolume}
      ORDER BY volume DESC, g LIMIT ${analyzerBounds.maxGroupsPerKind}
    ),
    s AS (
      SELECT g, email, count(*) AS n FROM m WHERE g IN (SELECT g FROM g) AND email IS NOT NULL GROUP BY g, email
    ),
    subj AS (
      SELECT DISTINCT ON (g, subject) g, subject, received_at FROM m WHERE g IN (SELECT g FROM g) AND subject IS NOT NULL ORDER BY g, subject, received_at DESC
    )
    SELECT g.g AS label, g.volume, g.senders, g.mailing_list_share, g.no_reply_share, g.attachment_share, g.total_groups,
           coalesce((SELECT (array_agg(s.email ORDER BY s.n DESC, s.email))[1:${analyzerBounds.topSenders}] FROM s WHERE s.g = g.g), '{}') AS top_senders,
           (SELECT (array_agg(left(subj.subject, 200) ORDER BY subj.received_at DESC, subj.subject))[1:${analyzerBounds.sampleSubjects}] FROM subj WHERE subj.g = g.g) AS sample_subjects
    FROM g ORDER BY g.volume DESC, g.g`;
  const round = (value: number) => Math.round(Number(value) * 1000) / 1000;
  return {
    total: Number(rows[0]?.total_groups ?? 0),
    groups: rows.map((row) => ({
      key: `${kind}:${row.label}`,
      kind,
      label: row.label,
      volume: Number(row.volume),
      senders: Number(row.senders),
      topSenders: row.top_senders ?? [],
      sampleSubjects: row.sample_subjects ?? [],
      mailingListShare: round(row.mailing_list_share),
      noReplyShare: round(row.no_reply_share),
      attachmentShare: round(row.attachment_share),
    })),
  };
}

/** Sender groups (by domain, then by mailing list, then by subject pattern), and how many groups reach the volume in all. */
export async function computeGroups(tx: Reader, input: StatisticsInput): Promise<{ groups: SenderGroup[]; total: number }> {
  const domains = await groupsBy(tx, input, 'domain');
  const lists = await groupsBy(tx, input, 'list');
  const subjects = await groupsBy(tx, input, 'subject');
  return { groups: [...domains.groups, ...lists.groups, ...subjects.groups], total: domains.total + lists.total + subjects.total };
}
