/**
 * The mailbox analyzer's statistics phase at 100,000 mirrored messages of one mailbox (part of
 * `npm run bench`, BENCH_ANALYZER=0 skips it; alone: `npx tsx bench/analyzer-stats.ts`, embedded
 * PostgreSQL or BENCH_DATABASE_URL):
 *
 *   seeded by SQL generate_series: 100,000 messages over 400 days from 2,000 senders of 300 domains,
 *   subjects of 500 patterns, one message in 7 from one of 40 mailing lists (List-Id), and 30,000
 *   journal entries; then VACUUM ANALYZE;
 *   measured: `computeStatistics` + `computeGroups` (server/domains/analyzer/run/repo-statistics.ts, every `body.stats`
 *   figure and the sender groups, window 365 days, minGroupVolume 5), best and median of N rounds;
 *   floor: a plain `SELECT count(*)` over the same rows (the mailbox's messages in the window), in the same run.
 * Target: ≤ 10 s (PASS/MISS, information only).
 */
import { randomUUID } from 'node:crypto';
import { runSectionAlone } from './database';
import { fixed } from './stats';

const messageCount = Number(process.env.BENCH_ANALYZER_MESSAGES) || 100_000;
const targetMs = 10_000;

export async function runAnalyzerStatsBench(options: { databaseUrl: string; log: (message: string) => void; rounds?: number }) {
  const { log } = options;
  const rounds = options.rounds ?? (Number(process.env.BENCH_ANALYZER_ROUNDS) || 3);
  process.env.DATABASE_URL = options.databaseUrl;
  const { db, disconnectDb } = await import('../server/core/db');
  const { resetConfigForTests } = await import('../server/core/config');
  const { computeGroups, computeStatistics } = await import('../server/domains/analyzer/run/repo-statistics');
  resetConfigForTests();

  log('');
  log(`analyzer statistics: ${messageCount.toLocaleString('en')} mirrored messages of one mailbox`);
  try {
    const member = await db().member.create({
      data: { email: `analyzer-bench-${randomUUID().slice(0, 8)}@example.test`, name: 'Analyzer Bench', role: 'member', status: 'active', passwordHash: 'x' },
    });
    const mailbox = await db().mailbox.create({ data: { memberId: member.id, provider: 'imap', address: `analyzer-bench-${randomUUID().slice(0, 6)}@example.test` } });
    const seedStarted = Date.now();
    await db().$executeRaw`
      INSERT INTO mail_messages (id, mailbox_id, provider_key, folder_key, subject, from_name, from_email, received_at, is_mailing_list, list_id, is_no_reply, has_attachments, ingested_via, updated_at)
      SELECT gen_random_uuid(), ${mailbox.id}::uuid, 'INBOX\n1\n' || n, 'INBOX',
             CASE n % 4 WHEN 0 THEN 'Re: ' ELSE '' END || 'Subject pattern ' || (n % 500) || ' number ' || n,
             'Sender ' || (n % 2000), 'user' || (n % 2000) || '@domain' || (n % 2000 % 300) || '.example',
             now() - (n % 400) * interval '1 day' - (n % 24) * interval '1 hour',
             n % 7 = 0, CASE WHEN n % 7 = 0 THEN 'list' || (n % 40) || '.lists.example' END, n % 11 = 0, n % 13 = 0, 'backfill', now()
      FROM generate_series(1, ${messageCount}) AS n`;
    await db().$executeRaw`
      INSERT INTO mail_journal_entries (id, member_id, mailbox_id, message_id, outcome, created_at)
      SELECT gen_random_uuid(), ${member.id}::uuid, ${mailbox.id}::uuid, gen_random_uuid(),
             (ARRAY['dispatched', 'unmatched', 'excluded_org', 'excluded_member', 'guardrail'])[1 + n % 5], now() - (n % 60) * interval '1 day'
      FROM generate_series(1, ${Math.floor(messageCount * 0.3)}) AS n`;
    await db().$executeRawUnsafe('VACUUM ANALYZE mail_messages');
    await db().$executeRawUnsafe('VACUUM ANALYZE mail_journal_entries');
    log(`seeded in ${fixed((Date.now() - seedStarted) / 1000, 1)} s`);

    const input = { mailboxId: mailbox.id, windowDays: 365, minGroupVolume: 5, now: new Date() };
    const since = new Date(input.now.getTime() - 400 * 86_400_000);
    const phase: number[] = [];
    const floor: number[] = [];
    let groups = 0;
    for (let round = 0; round < rounds; round += 1) {
      let started = performance.now();
      const stats = await computeStatistics(db(), input);
      const grouped = await computeGroups(db(), input);
      phase.push(performance.now() - started);
      groups = grouped.total;
      if (round === 0) log(`figures: messages365d ${stats.messages365d}, senders ${stats.senders}, domains ${stats.domains}, groups ${grouped.total}, received30d ${stats.received30d}`);
      started = performance.now();
      await db().$queryRaw`SELECT count(*) FROM mail_messages WHERE mailbox_id = ${mailbox.id}::uuid AND received_at >= ${since}`;
      floor.push(performance.now() - started);
    }
    const sort = (values: number[]) => [...values].sort((a, b) => a - b);
    const median = (values: number[]) => sort(values)[Math.floor(values.length / 2)];
    const phaseMedian = median(phase);
    const floorMedian = median(floor);
    log(
      `statistics phase: median ${fixed(phaseMedian, 0)} ms (best ${fixed(sort(phase)[0], 0)} ms) over ${rounds} rounds, ${groups} groups; ` +
        `floor count(*) over the same rows: median ${fixed(floorMedian, 1)} ms; ratio ${fixed(phaseMedian / Math.max(floorMedian, 0.001), 1)}x; ` +
        `target ≤ ${targetMs / 1000} s: ${phaseMedian <= targetMs ? 'PASS' : 'MISS'}`,
    );
    return { phaseMedianMs: phaseMedian, floorMedianMs: floorMedian };
  } finally {
    await disconnectDb();
  }
}

// Alone: `npx tsx bench/analyzer-stats.ts` (embedded PostgreSQL, or BENCH_DATABASE_URL as in the main bench).
await runSectionAlone(import.meta.url, runAnalyzerStatsBench);
