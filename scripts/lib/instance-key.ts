/**
 * `npm start` on a fresh machine must be able to connect mailboxes, which needs an instance key. When
 * ENCRYPTION_KEY is unset, the key is read from (or, the first time, generated into) <DATA_DIR>/encryption-key,
 * readable by its owner only. An operator who sets ENCRYPTION_KEY is never overridden.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function ensureInstanceKey(dataDir: string, env: NodeJS.ProcessEnv): Promise<{ generated: boolean; file: string | null }> {
  if (env.ENCRYPTION_KEY && env.ENCRYPTION_KEY.trim() !== '') return { generated: false, file: null };
  const file = path.resolve(dataDir, 'encryption-key');
  try {
    env.ENCRYPTION_KEY = (await readFile(file, 'utf8')).trim();
    return { generated: false, file };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await mkdir(path.dirname(file), { recursive: true });
  const key = randomBytes(32).toString('base64');
  // `wx`: two starts racing never overwrite each other's key.
  await writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  env.ENCRYPTION_KEY = key;
  return { generated: true, file };
}
