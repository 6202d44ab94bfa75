/**
 * Mail for the mail benchmarks, deterministic (seeded): a mix shaped like an ordinary inbox —
 * short plain-text replies with quoted history, HTML newsletters with a text alternative, messages
 * with a small attachment, a few with a larger one — about 10 KB on average. Each carries the header a
 * message has by the time it is in a mailbox (`traceHeader`): Received lines, SPF/DKIM/DMARC results, DKIM
 * and ARC signatures, the sending service's own lines, 2-4 KB in all as in real mail (a composer's header
 * alone is about 300 bytes). `traceHeaders: false` leaves it out (the corpus of the figures before
 * 2026-12-06).
 */
import { buildRawMessage } from '../server/testing/mail-servers/deliver';

/** xorshift32: the same corpus every run. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 0x1_0000_0000;
  };
}

const words = 'the a meeting budget report project please review attached thanks regards team update schedule invoice customer order delivery question answer next week today tomorrow call notes draft final version numbers quarter plan'.split(' ');

function sentence(random: () => number, count: number): string {
  const out: string[] = [];
  for (let index = 0; index < count; index += 1) out.push(words[Math.floor(random() * words.length)]!);
  return `${out.join(' ')}.`;
}

function paragraphs(random: () => number, bytes: number): string {
  const out: string[] = [];
  let size = 0;
  while (size < bytes) {
    const line = sentence(random, 8 + Math.floor(random() * 12));
    out.push(line);
    size += line.length + 1;
  }
  return out.join('\n');
}

function newsletterHtml(random: () => number, bytes: number): string {
  const blocks: string[] = ['<html><head><style>body{font-family:Arial}.c{padding:8px}</style></head><body><table width="600">'];
  let size = blocks[0]!.length;
  while (size < bytes) {
    const block = `<tr><td class="c"><h2>${sentence(random, 4)}</h2><p>${sentence(random, 30)}</p><a href="https://news.example.test/${Math.floor(random() * 1e6)}">Read more</a><img src="https://img.example.test/${Math.floor(random() * 1e6)}.png" width="560"></td></tr>`;
    blocks.push(block);
    size += block.length;
  }
  blocks.push('</table></body></html>');
  return blocks.join('\n');
}

function binary(random: () => number, bytes: number): Buffer {
  const buffer = Buffer.alloc(bytes);
  for (let index = 0; index < bytes; index += 4) buffer.writeUInt32LE(Math.floor(random() * 0xffffffff), Math.min(index, bytes - 4));
  return buffer;
}

const base64Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64Like(random: () => number, chars: number): string {
  let out = '';
  for (let index = 0; index < chars; index += 1) out += base64Alphabet[Math.floor(random() * 64)];
  return out;
}

/** A tag=value header folded as signers fold it: a line per group of tags, the signature (`b=`) cut every 72 characters. */
function folded(name: string, tags: string[]): string {
  const lines = tags.flatMap((tag) => {
    if (!tag.startsWith('b=')) return [tag];
    const chunks: string[] = [];
    for (let at = 0; at < tag.length; at += 72) chunks.push(tag.slice(at, at + 72));
    return chunks;
  });
  return `${name}: ${lines.join('\r\n        ')}`;
}

function rfc2822(date: Date): string {
  return date.toUTCString().replace('GMT', '+0000');
}

/**
 * What the mail servers between sender and mailbox prepend (newest first), for a sender at `domain`:
 * the receiving side's trace and authentication results, the sender's DKIM signature, and for about
 * half the mail a forwarding hop's ARC set; bulk senders add their unsubscribe and feedback lines.
 */
function traceHeader(random: () => number, options: { domain: string; fromEmail: string; to: string; date: Date; bulk: boolean }): string {
  const { domain, fromEmail, to, date, bulk } = options;
  const ip = `192.0.2.${1 + Math.floor(random() * 250)}`;
  const stamp = Math.floor(date.getTime() / 1000);
  const hop = (seconds: number) => rfc2822(new Date(date.getTime() + seconds * 1000));
  const id = () => base64Like(random, 16).replace(/[+/]/g, 'x');
  const lines = [
    `Return-Path: <${fromEmail}>`,
    `Delivered-To: ${to}`,
    `Received: from mx.example.test\r\n        by imap.example.test with LMTP\r\n        id ${id()}\r\n        (envelope-from <${fromEmail}>)\r\n        for <${to}>; ${hop(2)}`,
    `Received: from mail-${id().slice(0, 6).toLowerCase()}.${domain} (mail-out.${domain} [${ip}])\r\n        by mx.example.test (Postfix) with ESMTPS id ${id()}\r\n        for <${to}>; ${hop(1)}`,
    `Received-SPF: pass (mx.example.test: domain of ${fromEmail} designates ${ip} as permitted sender) client-ip=${ip}; envelope-from=${fromEmail}; helo=mail-out.${domain};`,
    `Authentication-Results: mx.example.test;\r\n        dkim=pass header.d=${domain} header.s=s${stamp % 7} header.b=${base64Like(random, 8)};\r\n        spf=pass (mx.example.test: domain of ${fromEmail} designates ${ip} as permitted sender) smtp.mailfrom=${fromEmail};\r\n        dmarc=pass (p=QUARANTINE sp=QUARANTINE dis=NONE) header.from=${domain}`,
  ];
  if (random() < 0.5) {
    lines.push(
      folded('ARC-Seal', [`i=1; a=rsa-sha256; t=${stamp}; cv=none;`, 'd=relay.example.test; s=arc-2026;', `b=${base64Like(random, 344)}`]),
      folded('ARC-Message-Signature', ['i=1; a=rsa-sha256; c=relaxed/relaxed;', 'd=relay.example.test; s=arc-2026;', 'h=to:subject:message-id:date:from:mime-version:dkim-signature;', `bh=${base64Like(random, 43)}=;`, `b=${base64Like(random, 344)}`]),
      `ARC-Authentication-Results: i=1; relay.example.test;\r\n        dkim=pass header.i=@${domain} header.s=s${stamp % 7};\r\n        spf=pass smtp.mailfrom=${fromEmail}`,
      `Received: from mail-out.${domain} ([${ip}]) by relay.example.test with ESMTPS id ${id()}; ${hop(0)}`,
    );
  }
  lines.push(
    folded('DKIM-Signature', ['v=1; a=rsa-sha256; c=relaxed/relaxed;', `d=${domain}; s=s${stamp % 7}; t=${stamp};`, 'h=from:to:subject:date:message-id:mime-version:content-type;', `bh=${base64Like(random, 43)}=;`, `b=${base64Like(random, 344)}`]),
    `X-Mailer-Queue-Id: ${id()}${id()}`,
    `X-Spam-Status: No, score=-${(random() * 3).toFixed(1)} required=5.0 tests=DKIM_SIGNED,DKIM_VALID,DKIM_VALID_AU,SPF_PASS autolearn=ham`,
  );
  if (bulk) {
    const token = base64Like(random, 40).replace(/[+/]/g, 'x');
    lines.push(
      `List-Unsubscribe: <https://news.example.test/unsubscribe/${token}>, <mailto:unsubscribe-${token.slice(0, 12)}@news.example.test>`,
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      'Precedence: bulk',
      `Feedback-ID: ${Math.floor(random() * 1e6)}:campaign:${domain}`,
      `X-Campaign-Id: ${id()}`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

export interface CorpusMessage {
  raw: Buffer;
  seen: boolean;
  flagged: boolean;
  date: Date;
}

export async function mailCorpus(count: number, options: { seed?: number; to?: string; days?: number; traceHeaders?: boolean } = {}): Promise<CorpusMessage[]> {
  const random = seeded(options.seed ?? 7);
  const to = options.to ?? 'me@example.test';
  const now = Date.now();
  const span = (options.days ?? 20) * 24 * 3600_000;
  const out: CorpusMessage[] = [];
  for (let index = 0; index < count; index += 1) {
    const kind = random();
    const topic = Math.floor(index / 4);
    const date = new Date(now - span + Math.floor((span * index) / count));
    const domain = `corp${topic % 13}.example.test`;
    const fromEmail = `sender${topic % 97}@${domain}`;
    const common = {
      from: `Sender ${topic % 97} <${fromEmail}>`,
      to,
      messageId: `<bench-${index}@corpus.example.test>`,
      date,
    };
    let raw: Buffer;
    if (kind < 0.6) {
      raw = await buildRawMessage({
        ...common,
        subject: index % 4 === 0 ? `Project ${topic}` : `Re: Project ${topic}`,
        inReplyTo: index % 4 === 0 ? undefined : `<bench-${index - 1}@corpus.example.test>`,
        text: `${paragraphs(random, 600 + Math.floor(random() * 1500))}\n\n> ${paragraphs(random, 400).replace(/\n/g, '\n> ')}`,
      });
    } else if (kind < 0.9) {
      const html = newsletterHtml(random, 5_000 + Math.floor(random() * 15_000));
      raw = await buildRawMessage({ ...common, subject: `Newsletter ${topic}`, html, text: paragraphs(random, 1_500), headers: { 'List-Id': `<news${topic % 5}.example.test>` } });
    } else {
      const large = kind > 0.98;
      raw = await buildRawMessage({
        ...common,
        subject: `Documents ${topic}`,
        text: paragraphs(random, 800),
        attachments: [{ filename: `doc-${index}.pdf`, content: binary(random, large ? 100_000 + Math.floor(random() * 100_000) : 10_000 + Math.floor(random() * 30_000)), contentType: 'application/pdf' }],
      });
    }
    if (options.traceHeaders !== false) {
      raw = Buffer.concat([Buffer.from(traceHeader(random, { domain, fromEmail, to, date, bulk: kind >= 0.6 && kind < 0.9 })), raw]);
    }
    out.push({ raw, seen: random() < 0.7, flagged: random() < 0.05, date });
  }
  return out;
}
