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
