/**
 * Key rotation, second half: every sealed column whose value was sealed under a previous key is opened
 * and sealed again under the current one, a batch at a time, each row in its own update guarded by
 * its old value (a concurrent change wins; the next pass picks the row up again). Run by the runner at
 * start and hourly; a no-op when nothing is left under an old key.
 *
 * The list of sealed columns lives here, next to the purposes they were sealed for, so a new sealed
 * column cannot be forgotten by rotation without this file changing.
 */
import { db } from '../db';
import { currentSealPrefix, needsReseal, open, seal } from './secret-box';

interface SealedColumn {
  table: string;
  id: string;
  column: string;
  purpose: (id: string) => string;
}

export const sealedColumns: readonly SealedColumn[] = [
  { table: 'credentials', id: 'id', column: 'data_enc', purpose: (id) => `credential:${id}` },
  { table: 'oauth_apps', id: 'provider', column: 'client_secret_enc', purpose: (provider) => `oauth-app:${provider}` },
  { table: 'oauth_flows', id: 'id', column: 'code_verifier_enc', purpose: (id) => `oauth-flow:${id}` },
  { table: 'workflows', id: 'id', column: 'webhook_token_enc', purpose: (id) => `webhook:${id}` },
  { table: 'workflows', id: 'id', column: 'webhook_secret_enc', purpose: (id) => `webhook-secret:${id}` },
  { table: 'llm_connections', id: 'id', column: 'api_key_enc', purpose: (id) => `llm-connection:${id}` },
];

const batchSize = 200;

/** Re-seals what an old key sealed; answers how many values moved to the current key, and how many could not be opened. */
export async function resealSecrets(): Promise<{ resealed: number; unreadable: number }> {
  const currentKeyPrefix = currentSealPrefix();
  if (currentKeyPrefix === null) return { resealed: 0, unreadable: 0 };
  let resealed = 0;
  let unreadable = 0;
  for (const sealed of sealedColumns) {
    let after = '';
    for (;;) {
      // Identifiers come from the constant list above, never from input.
      const rows = await db().$queryRawUnsafe<{ id: string; value: string }[]>(
        `SELECT ${sealed.id}::text AS id, ${sealed.column} AS value FROM ${sealed.table}
         WHERE NOT starts_with(${sealed.column}, $1) AND ${sealed.id}::text > $2 ORDER BY ${sealed.id}::text LIMIT ${batchSize}`,
        currentKeyPrefix,
        after,
      );
      if (rows.length === 0) break;
      for (const row of rows) {
        after = row.id;
        if (!needsReseal(row.value)) continue;
        let plaintext: string;
        try {
          plaintext = open(row.value, sealed.purpose(row.id));
        } catch {
          unreadable += 1;
          continue;
        }
        const updated = await db().$executeRawUnsafe(
          `UPDATE ${sealed.table} SET ${sealed.column} = $1 WHERE ${sealed.id}::text = $2 AND ${sealed.column} = $3`,
          seal(plaintext, sealed.purpose(row.id)),
          row.id,
          row.value,
        );
        resealed += updated;
      }
    }
  }
  return { resealed, unreadable };
}
