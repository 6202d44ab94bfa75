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
  putMany(entries: Array<{ key: string; content: Buffer }>, tx?: Pick<Tx, '$executeRawUnsafe'>): Promise<void>;
  /** Null when the key holds nothing (never stored, or purged). */
  get(key: string): Promise<Buffer | null>;
  delete(keys: string[], tx?: Pick<Tx, '$executeRawUnsafe'>): Promise<void>;
}

/** Blobs per statement of `putMany` (one parameter each; PostgreSQL takes at most 65,535). */
const putManyChunk = 500;

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

  async putMany(entries: Array<{ key: string; content: Buffer }>, tx: Pick<Tx, '$executeRawUnsafe'> = db()): Promise<void> {
    for (let start = 0; start < entries.length; start += putManyChunk) {
      const chunk = entries.slice(start, start + putManyChunk);
      // Each content is a parameter of its own, a Buffer, which pg sends in binary: PostgreSQL stores
      // the bytes as they come. (Before, base64 text arrays: encoded here, parsed and decoded there.)
      const contents = chunk.map((_, index) => `(${index + 1}, $${index + 4}::bytea)`);
      await tx.$executeRawUnsafe(
        `INSERT INTO stored_blobs (key, content, size, sha256)
         SELECT t.k, c.content, t.s, t.h
           FROM unnest($1::text[], $2::int[], $3::text[]) WITH ORDINALITY AS t(k, s, h, n)
           JOIN (VALUES ${contents.join(', ')}) AS c(n, content) ON c.n = t.n
         ON CONFLICT (key) DO UPDATE SET content = excluded.content, size = excluded.size, sha256 = excluded.sha256`,
        chunk.map((entry) => entry.key),
        chunk.map((entry) => entry.content.length),
        chunk.map((entry) => createHash('sha256').update(entry.content).digest('hex')),
        ...chunk.map((entry) => entry.content),
      );
    }
  }

  async get(key: string): Promise<Buffer | null> {
    const row = await db().storedBlob.findUnique({ where: { key }, select: { content: true } });
    return row ? Buffer.from(row.content) : null;
  }

  async delete(keys: string[], tx: Pick<Tx, '$executeRawUnsafe'> = db()): Promise<void> {
    if (keys.length === 0) return;
    await tx.$executeRawUnsafe(`DELETE FROM stored_blobs WHERE key = ANY($1::text[])`, keys);
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
