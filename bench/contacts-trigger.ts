/**
 * The sender's address book entry in a mail run's trigger data (issue 22): what it costs the mail
 * dispatcher per message. Alone: `npx tsx bench/contacts-trigger.ts` (embedded PostgreSQL or
 * BENCH_DATABASE_URL). Not part of `npm run bench`.
 *
 * One member, one mailbox, one live mail workflow; `BENCH_CONTACTS_ENTRIES` (20,000) address book
 * entries with a shared card around. Each round queues `BENCH_CONTACTS_MESSAGES` (200) new messages and
 * times `dispatchNewMail` (one transaction per message: journal entry, trigger data, the run and its
 * job), three ways, interleaved: the composition's read switched off (`senderContact` answering null:
 * what dispatch did before), a sender nobody has a card for, and a sender with a shared domain card and
 * a member card. The floor is the first; the figure is the difference per message.
 */
import { runSectionAlone } from './database';
import { fixed, table } from './stats';

function intEnv(name: string, fallback: number): number {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const settings = { messages: intEnv('BENCH_CONTACTS_MESSAGES', 200), entries: intEnv('BENCH_CONTACTS_ENTRIES', 20_000), rounds: intEnv('BENCH_CONTACTS_ROUNDS', 3) };

export async function runContactsTriggerBench(options: { databaseUrl: string; log: (message: string) => void }): Promise<void> {
  const { log, databaseUrl } = options;
  process.env.DATABASE_URL = databaseUrl;
  const { db } = await import('../server/core/db');
  const { resetConfigForTests } = await import('../server/core/config');
  resetConfigForTests();
  const { composeEngine } = await import('../server/engine-adapters/compose');
  const { composeEngineWith, engineComposition } = await import('../server/engine/composition');
  const { dispatchNewMail } = await import('../server/engine/dispatch/dispatch-mail');
  const { createWorkflow } = await import('../server/testing/workflow-factories');
  const { createMailbox, createMessage } = await import('../server/testing/mail-factories');
  const { memberCard, sharedCard } = await import('../server/testing/contact-cards');

  composeEngine();
  const real = engineComposition();
  const off = { ...real, reads: { senderContact: async () => null } };

  const member = await db().member.create({ data: { email: 'contacts-bench@example.test', name: 'Contacts Bench', role: 'member', status: 'active', passwordHash: 'x' } });
  const mailbox = await createMailbox(member, { address: 'desk@bench.test' });
  await createWorkflow(member, { name: 'Mail', graph: { nodes: [{ id: 'mail', type: 'trigger.mail', version: 1, name: 'Mail', params: {}, position: { x: 0, y: 0 } }], connections: [] } });
  await db().$executeRawUnsafe(`
    WITH e AS (INSERT INTO contact_entries (id, kind, value)
               SELECT gen_random_uuid(), CASE WHEN i % 5 = 0 THEN 'domain' ELSE 'contact' END,
                      CASE WHEN i % 5 = 0 THEN 'org' || i || '.test' ELSE 'person' || i || '@org' || (i / 5 * 5) || '.test' END
                 FROM generate_series(1, ${settings.entries}) i RETURNING id)
    INSERT INTO contact_shared_cards (id, entry_id, display_name, status) SELECT gen_random_uuid(), id, 'Someone', 'customer' FROM e`);
  await sharedCard('domain', 'bigcorp.test', { displayName: 'Big Corp', status: 'vip', language: 'fr' });
  await memberCard(member.id, 'contact', 'anne@bigcorp.test', { formality: 'vous', tone: 'formal' });

  const modes = [
    { name: 'read off (before)', composition: off, sender: 'stranger@nowhere.test' },
    { name: 'no card', composition: real, sender: 'stranger@nowhere.test' },
    { name: 'with cards', composition: real, sender: 'anne@bigcorp.test' },
  ] as const;
  const perMessage = new Map<string, number[]>(modes.map((mode) => [mode.name, []]));

  for (let round = 0; round < settings.rounds; round += 1) {
    for (const mode of modes) {
      for (let index = 0; index < settings.messages; index += 1) {
        const message = await createMessage(mailbox, { fromEmail: mode.sender, subject: `Bench ${round} ${index}` });
        await db().mailDispatchQueue.create({ data: { messageId: message.id, mailboxId: mailbox.id } });
      }
      composeEngineWith(mode.composition);
      const started = performance.now();
      const handled = await dispatchNewMail(mailbox.id);
      const elapsed = performance.now() - started;
      if (handled !== settings.messages) log(`  ${mode.name}: handled ${handled} of ${settings.messages}`);
      perMessage.get(mode.name)!.push(elapsed / handled);
    }
  }
  composeEngineWith(real);
  const sample = await db().execution.findFirst({ where: { memberId: member.id, messageHeadline: { path: ['fromEmail'], equals: 'anne@bigcorp.test' } }, select: { triggerData: true } });

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const floor = median(perMessage.get(modes[0].name)!);
  log('');
  log(`sender's address book entry in the trigger data: ${settings.messages} messages × ${settings.rounds} rounds per way, ${settings.entries} entries around`);
  const rows = modes.map((mode) => {
    const values = perMessage.get(mode.name)!;
    const value = median(values);
    return [mode.name, fixed(value, 2), values.map((item) => fixed(item, 2)).join(' '), `${value - floor >= 0 ? '+' : ''}${fixed(value - floor, 2)} ms`];
  });
  for (const line of table([['way', 'ms / message (median)', 'rounds', 'vs read off'], ...rows])) log(`  ${line}`);
  log(`  a run's trigger.contact with cards: ${JSON.stringify((sample?.triggerData as { contact?: unknown } | null)?.contact ?? null)}`);
}

await runSectionAlone(import.meta.url, runContactsTriggerBench);
