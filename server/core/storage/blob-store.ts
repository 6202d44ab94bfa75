/**
 * Binary content (attachments, uploads) behind one interface. The default backend keeps it in
 * PostgreSQL (`stored_blobs`), so several instances share it with no other service; an object store
 * can be added as another `BlobStore` without touching the callers.
 *
 * Keys are chosen by the caller (`att/<messageId>/<position>`, `upload/<id>`); writing a key again
 * replaces its content.
 */
import { createHash } from 'node:crypto';
import { db, type Tx } from '../db';

export interface BlobStore {
  put(key: string, content: Buffer, tx?: Pick<Tx, 'storedBlob'>): Promise<{ size: number; sha256: string }>;
  /** Many at once (the mail sync's attachments of a batch), in one statement where the backend allows. */
  putMany(entries: Array<{ key: string; content: Buffer }>, tx?: Pick<Tx, 'storedBlob' | '$executeRawUnsafe'>): Promise<void>;
  /** Null when the key holds nothing (never stored, or purged). */
  get(key: string): Promise<Buffer | null>;
  delete(keys: string[], tx?: Pick<Tx, 'storedBlob'>): Promise<void>;
}

class PostgresBlobStore implements BlobStore {
  async put(key: string, content: Buffer, tx: Pick<Tx, 'storedBlob'> = db()): Promise<{ size: number; sha256: string }> {
    const sha256 = createHash('sha256').update(content).digest('hex');
    const bytes = new Uint8Array(content);
    await tx.storedBlob.upsert({
      where: { key },
      create: { key, content: bytes, size: content.length, sha256 },
      update: { content: bytes, size: content.length, sha256 },
    });
    return { size: content.length, sha256 };
  }

  async putMany(entries: Array<{ key: string; content: Buffer }>, tx: Pick<Tx, 'storedBlob' | '$executeRawUnsafe'> = db()): Promise<void> {
    if (entries.length === 0) return;
    // Binary travels as base64 text arrays (decoded by PostgreSQL): one round trip for the batch.
    await tx.$executeRawUnsafe(
      `INSERT INTO stored_blobs (key, content, size, sha256)
       SELECT k, decode(c, 'base64'), s, h FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) AS t(k, c, s, h)
       ON CONFLICT (key) DO UPDATE SET content = excluded.content, size = excluded.size, sha256 = excluded.sha256`,
      entries.map((entry) => entry.key),
      entries.map((entry) => entry.content.toString('base64')),
      entries.map((entry) => entry.content.length),
      entries.map((entry) => createHash('sha256').update(entry.content).digest('hex')),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    const row = await db().storedBlob.findUnique({ where: { key }, select: { content: true } });
    return row ? Buffer.from(row.content) : null;
  }

  async delete(keys: string[], tx: Pick<Tx, 'storedBlob'> = db()): Promise<void> {
    if (keys.length === 0) return;
    await tx.storedBlob.deleteMany({ where: { key: { in: keys } } });
  }
}

let store: BlobStore | null = null;

export function blobStore(): BlobStore {
  store ??= new PostgresBlobStore();
  return store;
}

export const blobKeys = {
  attachment: (messageId: string, position: number) => `att/${messageId}/${position}`,
  upload: (id: string) => `upload/${id}`,
} as const;
