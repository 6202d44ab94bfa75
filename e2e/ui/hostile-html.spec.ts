/**
 * Evidence: the hostile-HTML corpus of the sanitiser (server/mail/sanitize/fixtures/hostile-vectors.ts),
 * stored as received mail and read through the real reading pane in a real browser: the service
 * sanitises each body (`bodyHtmlSafe`) and the webmail shows it in its sandboxed frame under its own
 * policy. Nothing may execute (no dialog, no flag set by a script, in the page or in a frame) and
 * nothing may load: the browser goes through a recording proxy (Playwright's own request events do not
 * see what sandboxed frames request), and any request to another origin, or to the application from
 * anything but the application itself, fails the test.
 *
 * The messages are written straight into the instance's mirror (no API writes mail), ten per thread,
 * all unread so that every message of an opened thread is expanded.
 */
import { randomUUID } from 'node:crypto';
import { expect, test, type Frame } from '@playwright/test';
import { hostileVectors } from '@/server/mail/sanitize/fixtures/hostile-vectors';
import { e2eDatabase } from '../fixtures/database';
import { startRecordingProxy } from '../fixtures/recording-proxy';
import { e2eAdmin, e2eBaseUrl } from '../fixtures/env';
import { signIn } from '../fixtures/session';

/** Extra vectors aimed at the canary: a script that runs anywhere would set it. */
const canaryVectors = [
  '<script>top.__hostileRan = true; parent.__hostileRan = true; window.__hostileRan = true</script>',
  '<img src=x onerror="top.__hostileRan=true;window.__hostileRan=true">',
  '<svg onload="top.__hostileRan=true;window.__hostileRan=true"></svg>',
  '<body onload="top.__hostileRan=true;window.__hostileRan=true">canary</body>',
  '<a id=go href="javascript:top.__hostileRan=true">link</a>',
  '<iframe srcdoc="<script>top.__hostileRan=true</script>"></iframe>',
  '<object data="data:text/html,<script>top.__hostileRan=true</script>"></object>',
  '<meta http-equiv="refresh" content="0;url=javascript:top.__hostileRan=true">',
  '<form action="javascript:top.__hostileRan=true"><button id=submit>go</button></form>',
  '<style>@import url("https://evil.example/x.css"); body{background:url(https://evil.example/bg.png)}</style><p>css</p>',
];

/**
 * PostgreSQL text cannot hold NUL or unpaired surrogates, so the mirror never holds them either: they
 * are stored as U+FFFD, which is also what an HTML parser makes of a NUL in most places.
 */
const storable = (html: string) => html.replaceAll(String.fromCharCode(0), '\uFFFD').toWellFormed();

const corpus = [
  ...hostileVectors.map((vector) => ({ id: vector.id, html: storable(vector.html) })),
  ...canaryVectors.map((html, index) => ({ id: `canary-${index}`, html })),
];
const perThread = 10;
/** What the click phase clicks in each body, the first of each kind. */
const clickTargets = ['#go', '#submit', 'a[href]', 'button'];

interface Seeded {
  mailboxId: string;
  threads: { id: string; vectorIds: string[] }[];
}

async function seed(): Promise<Seeded> {
  const db = await e2eDatabase();
  try {
    const member = await db.query<{ id: string }>('SELECT id FROM members WHERE email = $1', [e2eAdmin.email]);
    const memberId = member.rows[0].id;
    const mailboxId = randomUUID();
    await db.query(
      `INSERT INTO mailboxes (id, member_id, provider, address, status, updated_at) VALUES ($1, $2, 'imap', $3, 'disconnected', now())`,
      [mailboxId, memberId, `hostile-${mailboxId.slice(0, 8)}@example.test`],
    );
    for (const [key, role] of [['INBOX', 'inbox'], ['Archive', 'archive'], ['Junk', 'spam'], ['Trash', 'trash']]) {
      await db.query(`INSERT INTO mail_folders (id, mailbox_id, key, role, name, updated_at) VALUES ($1, $2, $3, $4, $3, now())`, [randomUUID(), mailboxId, key, role]);
    }
    const threads: Seeded['threads'] = [];
    const start = Date.now() - corpus.length * 1000;
    for (let offset = 0; offset < corpus.length; offset += perThread) {
      const chunk = corpus.slice(offset, offset + perThread);
      const threadId = randomUUID();
      const subject = `Hostile ${offset / perThread + 1}`;
      await db.query(`INSERT INTO mail_threads (id, mailbox_id, subject, last_message_at, updated_at) VALUES ($1, $2, $3, now(), now())`, [threadId, mailboxId, subject]);
      for (const [index, vector] of chunk.entries()) {
        await db.query(
          `INSERT INTO mail_messages (id, mailbox_id, thread_id, provider_key, folder_key, subject, snippet, from_email, from_name,
             received_at, seen, body_text, body_html, body_complete, ingested_via, updated_at)
           VALUES ($1, $2, $3, $4, 'INBOX', $5, $6, 'attacker@evil.example', 'Attacker', $7, false, null, $8, true, 'delta', now())`,
          [randomUUID(), mailboxId, threadId, `INBOX\n1\n${randomUUID()}`, subject, vector.id, new Date(start + (offset + index) * 1000), vector.html],
        );
      }
      await db.query(
        `UPDATE mail_threads t SET message_count = s.n, unread_count = s.unread, last_message_at = s.last, folder_keys = s.folders,
           participants = '[{"name":"Attacker","email":"attacker@evil.example"}]'::jsonb, participant_count = 1
         FROM (SELECT count(*)::int AS n, count(*) FILTER (WHERE NOT seen)::int AS unread, max(received_at) AS last,
                      array_agg(DISTINCT folder_key) AS folders FROM mail_messages WHERE thread_id = $1) s
         WHERE t.id = $1`,
        [threadId],
      );
      threads.push({ id: threadId, vectorIds: chunk.map((vector) => vector.id) });
    }
    await db.query('UPDATE mailboxes SET message_count = $2 WHERE id = $1', [mailboxId, corpus.length]);
    return { mailboxId, threads };
  } finally {
    await db.end();
  }
}

async function canaryIn(frame: Frame): Promise<unknown> {
  // A frame without scripts may refuse evaluation too: that is as good as an unset flag.
  return frame.evaluate(() => (window as unknown as { __hostileRan?: unknown }).__hostileRan).catch(() => undefined);
}

test('the hostile corpus renders inert in the reading pane: nothing executes, nothing loads', async ({ browser }) => {
  test.setTimeout(300_000);
  expect(hostileVectors.length).toBeGreaterThanOrEqual(100);
  const seeded = await seed();

  const proxy = await startRecordingProxy(e2eBaseUrl);
  // `<-loopback>`: the application is on 127.0.0.1, which browsers otherwise reach without the proxy.
  const context = await browser.newContext({ baseURL: e2eBaseUrl, locale: 'en-US', proxy: { server: proxy.server, bypass: '<-loopback>' } });
  const page = await context.newPage();
  const dialogs: string[] = [];
  const popups: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  // Windows opened by anything but a click on a link the test made (see the click phase below).
  let clicking = false;
  let linkWindows = 0;
  page.on('popup', (popup) => {
    if (clicking) linkWindows += 1;
    else popups.push(popup.url());
    void popup.close().catch(() => undefined);
  });
  /** Hosts of the links clicked: the only places a click may open, in a new window. */
  const clickedHosts = new Set<string>();
  const renderPhaseRequests: string[] = [];
  const clickPhaseRequests: string[] = [];

  await signIn(page, e2eAdmin.email, e2eAdmin.password);
  for (const thread of seeded.threads) {
    await page.goto(`/messages?mailbox=${seeded.mailboxId}&thread=${thread.id}`);
    const view = page.getByTestId('thread-view');
    await expect(view.getByTestId('message-item')).toHaveCount(thread.vectorIds.length);
    // Every message expanded and its body shown in a frame (or, for bodies sanitised to nothing, the empty-body note).
    await expect(view.getByTestId('message-loading')).toHaveCount(0);
    await expect(view.getByTestId('message-error')).toHaveCount(0);
    const beforeRender = proxy.recorded.length;
    // Every frame's sandbox and policy, read in one call (two per frame were most of a thread's time).
    const frameAttributes = await view.getByTestId('message-frame').evaluateAll((elements) => elements.map((element) => ({ sandbox: element.getAttribute('sandbox'), srcdoc: element.getAttribute('srcdoc') ?? '' })));
    for (const { sandbox, srcdoc } of frameAttributes) {
      expect(sandbox).toBe('allow-same-origin allow-popups allow-popups-to-escape-sandbox');
      expect(srcdoc).toContain(`default-src 'none'; img-src data: cid:; style-src 'unsafe-inline'`);
    }
    // Give anything that would run (onload, autofocus, meta refresh, animations) its chance.
    await page.waitForTimeout(300);
    for (const frame of page.frames()) expect(await canaryIn(frame), `canary in ${frame.url()}`).toBeUndefined();
    renderPhaseRequests.push(...proxy.recorded.slice(beforeRender));
    // Clicking inside the bodies must not run anything. A link may open its page in a new window (that is
    // what a reader asks for), only an http(s) or mailto one, and nothing else may load.
    const beforeClicks = proxy.recorded.length;
    clicking = true;
    for (const frame of page.frames().filter((candidate) => candidate.parentFrame() !== null)) {
      // Most bodies hold nothing to click: one look for any target first, not one per kind.
      if ((await frame.locator(clickTargets.join(', ')).count().catch(() => 0)) === 0) continue;
      for (const selector of clickTargets) {
        const target = frame.locator(selector).first();
        if ((await target.count().catch(() => 0)) === 0) continue;
        const href = await target.getAttribute('href', { timeout: 1000 }).catch(() => null);
        const webLink = href !== null && /^https?:/i.test(href);
        if (href !== null) {
          expect(href, 'a link the sanitiser kept').toMatch(/^(https?:|mailto:)/i);
          if (webLink) clickedHosts.add(new URL(href).host);
        }
        // A web link's window is awaited before the next click: on a loaded machine its popup event came after the
        // click phase had ended and was counted as a window opened by the content.
        const linkWindow = webLink ? page.waitForEvent('popup', { timeout: 5000 }).catch(() => undefined) : undefined;
        const clicked = await target.click({ timeout: 1000, noWaitAfter: true, force: true }).then(
          () => true,
          () => false,
        );
        if (clicked) await linkWindow;
      }
    }
    await page.waitForTimeout(300);
    clicking = false;
    clickPhaseRequests.push(...proxy.recorded.slice(beforeClicks));
  }
  await page.waitForTimeout(300);

  expect(await page.evaluate(() => (window as unknown as { __hostileRan?: unknown }).__hostileRan)).toBeUndefined();
  await context.close();
  await proxy.close();
  expect(dialogs, 'dialogs opened by message content').toEqual([]);
  expect(popups, 'windows opened by message content').toEqual([]);
  expect(renderPhaseRequests, 'requests to other origins, or to the application from message frames').toEqual([]);
  const hostOf = (entry: string) => {
    const target = entry.split(' ')[1] ?? '';
    return entry.startsWith('CONNECT ') ? target : new URL(target).host;
  };
  const unexpected = clickPhaseRequests.filter((entry) => !clickedHosts.has(hostOf(entry)) && !clickedHosts.has(hostOf(entry).replace(/:443$/, '')));
  expect(unexpected, 'requests after a click to anything but the clicked link').toEqual([]);
  // And links do work: the corpus has kept http(s) links, and clicking them opened windows.
  expect(clickedHosts.size).toBeGreaterThan(0);
  expect(linkWindows).toBeGreaterThan(0);
});
