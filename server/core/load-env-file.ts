/**
 * Command-line entry points (npm start, db:migrate, the runner) read `.env` like Next.js does for the
 * web process, so one file configures every process. Variables already in the environment win.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';

export function loadEnvFile(file = path.resolve(process.cwd(), '.env')): void {
  if (existsSync(file)) process.loadEnvFile(file);
}
