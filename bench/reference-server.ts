/**
 * The two reference servers, each run as its own process (so it does not share an event loop with
 * the load generator):
 *
 *   tsx bench/reference-server.ts ceiling   bare node:http, answers BENCH_BODY to every request
 *   tsx bench/reference-server.ts floor     bare node:http + pg.Pool: per request exactly the one
 *                                           statement GET /api/v1/auth/me runs, prepared under the
 *                                           same name (apiKeyLookupWithFiguresStatement of
 *                                           server/core/auth/authenticate.ts: the key, the member,
 *                                           the rate-limit hit, the last_used_at touch and the
 *                                           member's figures), same JSON out, built from that row
 *
 * Environment: PORT (0: any), HOST, DATABASE_URL and DATABASE_POOL_SIZE (floor, default 10 like the
 * app), API_KEY_RATE_LIMIT (floor, default 600). Prints `ready on <url>`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import pg from 'pg';
import { apiKeyLookupWithFiguresStatement } from '../server/core/auth/authenticate';
import { apiKeyPrefix, tokenHash } from '../server/core/auth/tokens';

const mode = process.argv[2];
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 0);

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

const unauthenticated = JSON.stringify({ error: { code: 'auth.unauthenticated', message: 'Authentication required.', details: {} } });
const rateLimited = JSON.stringify({ error: { code: 'api_key.rate_limited', message: 'Too many requests for this API key.', details: {} } });

function ceilingHandler(): (req: IncomingMessage, res: ServerResponse) => void {
  const body = process.env.BENCH_BODY;
  if (!body) throw new Error('BENCH_BODY is not set');
  return (_req, res) => send(res, 200, body);
}

interface KeyRow {
  key_id: string;
  member_id: string;
  email: string;
  name: string;
  role: string;
  created_at: Date;
  hits: number | string;
  earlier: number | string;
  must_change_password: boolean;
  mailbox_count: number;
  published_workflow_count: number;
}

function floorHandler(): (req: IncomingMessage, res: ServerResponse) => void {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL must be set');
  const poolSize = Number(process.env.DATABASE_POOL_SIZE);
  const pool = new pg.Pool({ connectionString: url, max: Number.isInteger(poolSize) && poolSize > 0 ? poolSize : 10 });
  pool.on('error', (error) => console.error('pool error:', error.message));
  const limit = Number(process.env.API_KEY_RATE_LIMIT ?? 600);

  const serve = async (req: IncomingMessage, res: ServerResponse) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    const secret = match?.[1];
    if (!secret || !secret.startsWith(apiKeyPrefix) || secret.length > 200) return send(res, 401, unauthenticated);
    const now = Math.floor(Date.now() / 1000);
    const { rows } = await pool.query<KeyRow>({ ...apiKeyLookupWithFiguresStatement, values: [tokenHash(secret), now] });
    const key = rows[0];
    if (!key) return send(res, 401, unauthenticated);
    if (Number(key.hits) + Number(key.earlier) > limit) return send(res, 429, rateLimited);
    // Same fields, order and formats as presentMember (server/domains/members/present.ts); the lookup
    // only matches active members, so status is 'active' as in currentMember.
    send(
      res,
      200,
      JSON.stringify({
        member: {
          id: key.member_id,
          email: key.email,
          name: key.name,
          role: key.role,
          status: 'active',
          mailboxCount: key.mailbox_count,
          publishedWorkflowCount: key.published_workflow_count,
          createdAt: key.created_at.toISOString(),
        },
        mustChangePassword: key.must_change_password,
      }),
    );
  };
  return (req, res) => {
    serve(req, res).catch((error) => {
      console.error('floor request failed:', error instanceof Error ? error.message : error);
      if (!res.headersSent) send(res, 500, JSON.stringify({ error: { code: 'internal', message: 'internal error', details: {} } }));
    });
  };
}

const handler = mode === 'ceiling' ? ceilingHandler() : mode === 'floor' ? floorHandler() : null;
if (!handler) {
  console.error('usage: tsx bench/reference-server.ts ceiling|floor');
  process.exit(2);
}
const server = createServer(handler);
server.listen(port, host, () => {
  const address = server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  console.log(`ready on http://${host}:${actualPort}`);
});
const stop = () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 2_000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
