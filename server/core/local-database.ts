/**
 * The database of this instance: DATABASE_URL when set, otherwise the embedded PostgreSQL kept in
 * `<DATA_DIR>/postgres`, started here and stopped by `stop()`.
 */
import path from 'node:path';
import { config } from './config';
import { startEmbeddedPostgres } from './embedded-postgres';

export interface LocalDatabase {
  url: string;
  /** True when we started the embedded server (and `stop` stops it). */
  embedded: boolean;
  stop(): Promise<void>;
}

export async function openLocalDatabase(log: (message: string) => void): Promise<LocalDatabase> {
  const external = process.env.DATABASE_URL?.trim();
  if (external) return { url: external, embedded: false, stop: async () => {} };
  const { DATA_DIR, EMBEDDED_PG_PORT } = config();
  const server = await startEmbeddedPostgres({
    directory: path.resolve(DATA_DIR, 'postgres'),
    port: EMBEDDED_PG_PORT,
    database: 'mailflow',
    log,
  });
  return { url: server.url, embedded: true, stop: server.stop };
}
