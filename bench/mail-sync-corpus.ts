/**
 * Mail for the mail benchmarks, deterministic (seeded): a mix shaped like an ordinary inbox —
 * short plain-text replies with quoted history, HTML newsletters with a text alternative, messages
 * with a small attachment, a few with a larger one — about 10 KB on average.
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

export interface CorpusMessage {
  raw: Buffer;
  seen: boolean;
  flagged: boolean;
  date: Date;
}

export async function mailCorpus(count: number, options: { seed?: number; to?: string; days?: number } = {}): Promise<CorpusMessage[]> {
  const random = seeded(options.seed ?? 7);
  const to = options.to ?? 'me@example.test';
  const now = Date.now();
  const span = (options.days ?? 20) * 24 * 3600_000;
  const out: CorpusMessage[] = [];
  for (let index = 0; index < count; index += 1) {
    const kind = random();
    const topic = Math.floor(index / 4);
    const date = new Date(now - span + Math.floor((span * index) / count));
    const common = {
      from: `Sender ${topic % 97} <sender${topic % 97}@corp${topic % 13}.example.test>`,
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
    out.push({ raw, seen: random() < 0.7, flagged: random() < 0.05, date });
  }
  return out;
}
