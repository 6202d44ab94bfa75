/**
 * Time to the first page (bench/mail-sync.ts): from the sync job's start to the moment the app's
 * messages list (`listMessages`, the query behind `GET /api/v1/messages` and the mail page) answers the
 * mailbox's newest `pageSize` messages, the exact ones the corpus holds as newest. The list is read
 * again on every `mail.changed` live event of the mailbox (what the browser does) and every 100 ms
 * besides, one read at a time; the figure includes that read.
 */
import pg from 'pg';

export interface FirstPageWatch {
  /** Resolves with the milliseconds from `startedAt` to the first list that showed the page, or NaN when stopped first. */
  readonly shown: Promise<number>;
  stop(): Promise<void>;
}

export async function watchFirstPage(options: {
  databaseUrl: string;
  mailboxId: string;
  memberId: string;
  /** Message-IDs of the newest messages, as the mirror stores them (`<…>`). */
  newestIds: readonly string[];
  startedAt: number;
}): Promise<FirstPageWatch> {
  const { listMessages } = await import('../server/domains/mail/messages/service');
  const { db } = await import('../server/core/db');
  const { realtimeChannelPrefix } = await import('../server/core/realtime/disconnect');
  const member = await db().member.findUniqueOrThrow({ where: { id: options.memberId } });
  const actor = { kind: 'session' as const, sessionId: 'bench', member: { id: member.id, email: member.email, name: member.name, role: member.role, createdAt: member.createdAt } };
  const expected = new Set(options.newestIds);
  const listener = new pg.Client({ connectionString: options.databaseUrl });
  await listener.connect();

  let stopped = false;
  let reading = false;
  let again = false;
  let resolveShown: (ms: number) => void = () => {};
  const shown = new Promise<number>((resolve) => (resolveShown = resolve));

  const pageShown = async (): Promise<boolean> => {
    const page = await listMessages(actor, { mailboxId: options.mailboxId, limit: expected.size });
    if (page.messages.length < expected.size) return false;
    const rows = await db().mailMessage.findMany({ where: { id: { in: page.messages.map((message) => message.id) } }, select: { messageIdHeader: true } });
    return rows.length === expected.size && rows.every((row) => row.messageIdHeader !== null && expected.has(row.messageIdHeader));
  };
  const check = async () => {
    if (stopped) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      do {
        again = false;
        // A read that fails (the pool busy for a moment) counts as not shown yet; the next event or tick reads again.
        if (await pageShown().catch(() => false)) {
          stopped = true;
          resolveShown(performance.now() - options.startedAt);
          return;
        }
      } while (again && !stopped);
    } finally {
      reading = false;
    }
  };
  listener.on('notification', (message) => {
    if (message.payload?.includes('"mail.changed"') && message.payload.includes(options.mailboxId)) void check();
  });
  await listener.query(`LISTEN "${realtimeChannelPrefix}#/"`);
  const timer = setInterval(() => void check(), 100);
  return {
    shown,
    async stop() {
      stopped = true;
      clearInterval(timer);
      resolveShown(Number.NaN);
      await listener.end().catch(() => {});
    },
  };
}
