/**
 * Entry point of a web process (`npm run web`): serves Next.js, REST, tRPC and the real-time channel
 * on HOST:PORT against DATABASE_URL. `npm start` spawns it; several can run against one database.
 * Prints `ready on <url>` once listening (scripts/start.ts waits for that line; with PORT=0 the URL
 * names the port the system chose). With WEB_API_ONLY=1 it serves no pages and never loads Next.js
 * (server/http/page-handler.ts): the same process otherwise.
 */
import { config } from '../core/config';
import { disconnectDb, keepConnectionsOpen } from '../core/db';
import { loadEnvFile } from '../core/load-env-file';
import { log } from '../core/log';
import { setOAuthTokenSource } from '../mail/providers/token-source';
import { sweepInterruptedTurns, interruptTurns } from '../domains/assistant';
import { mailTokenSource } from '../domains/oauth';
import { composeEngine } from '../engine-adapters/compose';
import { startWebServer } from './web-server';

// `.env` before the configuration is first read, as the runner does: Next.js loads it too, but only
// once it starts, after this process has read its settings (and never in an API-only process).
loadEnvFile();
// A service process: the connections it opened stay open through quiet spells (core/db/index.ts).
keepConnectionsOpen();
const { NODE_ENV, PORT, HOST, WEB_API_ONLY, WEB_DRAIN_SECONDS } = config();
// Reading a message whose body is not mirrored yet fetches it from an OAuth provider with these tokens.
setOAuthTokenSource(mailTokenSource);
// Cancels end runs in this process: the engine's run-end hooks (and capabilities) come from the composition root.
composeEngine();
const web = await startWebServer({ pages: WEB_API_ONLY ? { kind: 'none' } : { kind: 'next', dev: NODE_ENV !== 'production' }, port: PORT, host: HOST });
console.log(`ready on ${web.url}`);
// Assistant turns another web process left running when it died (the runner sweeps every minute too).
void sweepInterruptedTurns()
  .then((count) => {
    if (count > 0) log.info({ count }, 'assistant: interrupted turns settled');
  })
  .catch((err: unknown) => log.warn({ err }, 'assistant: sweep of interrupted turns failed'));

let stopping = false;
async function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  log.info({ signal, drainSeconds: WEB_DRAIN_SECONDS }, 'web server stopping: no new connections, requests in flight finish');
  // The drain, then 10 s for the rest, whatever hangs.
  const force = setTimeout(() => process.exit(1), WEB_DRAIN_SECONDS * 1000 + 10_000);
  force.unref();
  await web.close(WEB_DRAIN_SECONDS * 1000).catch((err) => log.error({ err }, 'web server close failed'));
  // This process's assistant turns end here: settle them now rather than leave them to the sweep.
  await interruptTurns().catch((err: unknown) => log.error({ err }, 'assistant: interrupting turns failed'));
  await disconnectDb();
  process.exit(0);
}
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
