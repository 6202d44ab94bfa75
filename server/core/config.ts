/**
 * The instance configuration, parsed once from the environment. Every variable is listed with its
 * meaning in `.env.example`; keep the two in step.
 */
import { z } from 'zod';
import { controlPlaneLinkOf, controlPlaneProblems } from './control-plane-config';
import { parseNetworks } from './http/ip-address';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true');

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== '' ? value.trim() : null));

/** An http(s) URL without query or fragment, with a default; an empty value means the default. */
const httpUrl = (fallback: string) =>
  optionalText
    .refine((value) => value === null || /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(value), { message: 'must be an http(s) URL without query or fragment' })
    .transform((value) => (value ?? fallback).replace(/\/+$/, ''));

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** Reverse proxies in front of the web server: 0/false none, 1/true one, or a number of hops (at most 10). */
const proxyHops = z
  .string()
  .optional()
  .transform((value, context) => {
    const text = (value ?? '').trim().toLowerCase();
    if (text === '' || text === 'false') return 0;
    if (text === 'true') return 1;
    if (/^\d{1,2}$/.test(text) && Number(text) <= 10) return Number(text);
    context.addIssue({ code: 'custom', message: 'TRUST_PROXY must be 0, 1, true, false or a number of proxy hops up to 10' });
    return z.NEVER;
  });

/** Trusted proxy networks, checked here so a typo stops the start with the entry named. */
const proxyNetworks = optionalText.superRefine((value, context) => {
  if (value === null) return;
  try {
    parseNetworks(value);
  } catch (error) {
    context.addIssue({ code: 'custom', message: `TRUST_PROXY_CIDRS: ${(error as Error).message}` });
  }
});

/** An http(s) API root without query or fragment; trailing slashes are dropped. */
const apiUrl = (fallback: string, name: string) =>
  optionalText
    .transform((value) => (value ?? fallback).replace(/\/+$/, ''))
    .refine((value) => /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(value), { message: `${name} must be an http(s) URL without query or fragment` });

const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: optionalText,
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /**
   * A web process that serves no pages, only what is ours (REST, tRPC, webhooks, /healthz, /readyz, the
   * socket), and never loads Next.js (server/http/page-handler.ts): for tests that start web processes, and
   * for an API and webhook tier behind the proxy. Pages answer 404 `request.not_found` there.
   */
  WEB_API_ONLY: flag,
  /**
   * On SIGTERM a web process stops accepting connections and lets the requests in flight finish for up to this
   * many seconds (a webhook being received is answered, its run kept), then cuts what is left and exits.
   */
  WEB_DRAIN_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  /** Public base URL, used for links (invitation accept URLs). Defaults to http://HOST:PORT. */
  PUBLIC_URL: optionalText.refine((value) => value === null || /^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/i.test(value), {
    message: 'PUBLIC_URL must be an http(s) URL without query or fragment, e.g. https://mail.example.com',
  }),
  /** Number of trusted proxy hops whose `X-Forwarded-For` entries are believed (from the right). */
  TRUST_PROXY: proxyHops,
  /** Comma-separated proxy networks; when set, replaces the hop count (see server/http/client-origin.ts). */
  TRUST_PROXY_CIDRS: proxyNetworks,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('.data'),
  /** Preferred port of the embedded PostgreSQL (used when DATABASE_URL is unset); a free one if taken. */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5433),
  SESSION_TTL_DAYS: positiveInt(30),
  INVITATION_TTL_DAYS: positiveInt(7),
  LOGIN_MAX_ATTEMPTS: positiveInt(10),
  LOGIN_WINDOW_SECONDS: positiveInt(300),
  API_KEY_RATE_LIMIT: positiveInt(600),
  /** Live API keys (not revoked, not expired) one member may hold; creating another is 409 api_key.limit_reached. */
  API_KEYS_MAX_PER_MEMBER: positiveInt(50),
  /** Requests per sliding minute one member may make through all their sessions together (keys count per key). */
  SESSION_RATE_LIMIT: positiveInt(1200),
  /**
   * Per-member throttles of what costs or reaches outside (server/core/http/member-throttles.ts), each
   * counted over its own sliding window whatever the credential; beyond, 429 request.throttled.
   */
  THROTTLE_CONNECTION_CHECKS: positiveInt(10),
  THROTTLE_FORCED_ANALYSES: positiveInt(10),
  THROTTLE_TEST_RUNS: positiveInt(60),
  THROTTLE_EVAL_RUNS: positiveInt(30),
  THROTTLE_UPLOADS: positiveInt(60),
  THROTTLE_ASSISTANT_TURNS: positiveInt(30),
  /**
   * `POST /hooks/wf/{token}` requests per client (IPv4 address or IPv6 /64) per sliding minute, counted before the
   * token is read (429 request.rate_limited beyond); 0 turns the limit off, for an instance whose reverse proxy
   * limits webhooks itself.
   */
  WEBHOOK_RATE_LIMIT: z.coerce.number().int().min(0).max(1_000_000).default(120),
  /**
   * Runs of one workflow waiting in `queued` beyond which a webhook call starts nothing and gets 503 internal.busy
   * with Retry-After (the sender tries again as the backlog drains); 0 turns the bound off. A burst's intake costs the
   * database more than the runs it starts can get done meanwhile: unbounded, it starves every member's runs.
   */
  WEBHOOK_MAX_QUEUED: z.coerce.number().int().min(0).max(1_000_000).default(1000),
  /**
   * Webhook calls this web process starts at once (the look-up and the run's row, after the rate limit); further
   * calls wait their turn. A burst's intake otherwise takes as many database connections, and as much of the
   * database's CPU, as it has senders, and the runs already queued get done ever slower (bench/README.md). A workflow
   * with as many runs queued as its slots gets half of them (server/http/webhook-intake.ts).
   */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** Webhook calls waiting for their turn in this web process beyond which one is refused at once (503 internal.busy). */
  WEBHOOK_QUEUE: z.coerce.number().int().min(0).max(10_000).default(100),
  /** Invitation accept attempts per client (IPv4 address or IPv6 /64) per sliding 10 minutes. */
  INVITATION_ACCEPT_MAX_ATTEMPTS: positiveInt(10),
  /** Password hashes (scrypt, 32 MB each) running at once in this process, 1-4 (libuv's pool has 4 threads). */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(4).default(2),
  /** Password hashes waiting for a slot; beyond, requests get 503 auth.busy at once. */
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).max(1000).default(32),
  TABLES_MAX_TABLES: positiveInt(200),
  TABLES_MAX_COLUMNS: positiveInt(50),
  TABLES_MAX_ROWS: positiveInt(100_000),
  TABLES_MAX_CELL_CHARS: positiveInt(10_000),
  /** CSV exports streaming at once in this process (each holds a pool connection); default: a third of the pool. */
  TABLES_MAX_EXPORTS: z.coerce.number().int().positive().optional(),
  TABLES_MAX_EXPORTS_PER_MEMBER: positiveInt(2),
  /** An export whose reader takes nothing for this long is ended and its connection freed. */
  TABLES_EXPORT_IDLE_SECONDS: positiveInt(30),
  /** Threads sanitising mail HTML (server/mail/sanitize), 1-16; default: CPUs - 1, at least 1, at most 4. */
  SANITIZE_THREADS: z.coerce.number().int().min(1).max(16).optional(),
  /** Sanitising tasks waiting for a thread; beyond, 503 internal.busy at once. */
  SANITIZE_QUEUE: z.coerce.number().int().min(0).max(10_000).default(100),
  /** A sanitising thread beyond the first that has had no task for this long exits. */
  SANITIZE_IDLE_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  /** A body still being sanitised after this long is given up (its thread is replaced). */
  SANITIZE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(15),
  /** Memory for sanitised bodies kept per process (by message), in MB; 0 turns the cache off. */
  SANITIZE_CACHE_MB: z.coerce.number().int().min(0).max(4_096).default(32),
  /** Threads evaluating workflow expressions in the runner (server/engine/expressions/sandbox), 1-16; default: CPUs - 1, at least 2, at most 4. */
  EXPRESSION_THREADS: z.coerce.number().int().min(1).max(16).optional(),
  /** Steps whose expressions wait for a thread; beyond, the step fails transiently and is retried. */
  EXPRESSION_QUEUE: z.coerce.number().int().min(0).max(10_000).default(200),
  /** Heap of one expression thread, in MB: an expression needing more fails and its thread is replaced. */
  EXPRESSION_HEAP_MB: z.coerce.number().int().min(32).max(4_096).default(256),
  BRAND_NAME: z.string().default('Mailflow'),
  BRAND_LOGO_LIGHT_URL: optionalText,
  BRAND_LOGO_DARK_URL: optionalText,
  BRAND_FAVICON_URL: optionalText,
  BRAND_COLOR_PRIMARY: optionalText,
  BRAND_COLOR_ON_PRIMARY: optionalText,
  BRAND_COLOR_ACCENT: optionalText,
  BRAND_COLOR_ON_ACCENT: optionalText,
  BRAND_SUPPORT_URL: optionalText,
  BRAND_POWERED_BY: optionalText,
  BRAND_LOGIN_WELCOME_EN: optionalText,
  BRAND_LOGIN_WELCOME_FR: optionalText,
  BRAND_LOGIN_IMAGE_URL: optionalText,
  INSTANCE_SUSPENDED: flag,
  /** Instance key sealing secrets at rest (any text of 32+ characters); unset: secrets cannot be stored. */
  ENCRYPTION_KEY: optionalText.refine((value) => value === null || value.length >= 32, {
    message: 'ENCRYPTION_KEY must be at least 32 characters (e.g. `openssl rand -base64 32`)',
  }),
  /** Earlier instance keys, comma-separated, still accepted to open secrets during a key rotation. */
  ENCRYPTION_KEYS_PREVIOUS: optionalText,
  /** OAuth provider A (authorization, token, account and mail API endpoints); tests point them at local fakes. */
  OAUTH_PROVIDER_A_AUTH_URL: httpUrl('https://accounts.google.com/o/oauth2/v2/auth'),
  OAUTH_PROVIDER_A_TOKEN_URL: httpUrl('https://oauth2.googleapis.com/token'),
  OAUTH_PROVIDER_A_USERINFO_URL: httpUrl('https://www.googleapis.com/oauth2/v3/userinfo'),
  OAUTH_PROVIDER_A_API_URL: httpUrl('https://gmail.googleapis.com'),
  /** OAuth provider B (authorization and token endpoints of its identity platform, and its API base). */
  OAUTH_PROVIDER_B_AUTH_URL: httpUrl('https://login.microsoftonline.com/common/oauth2/v2.0/authorize'),
  OAUTH_PROVIDER_B_TOKEN_URL: httpUrl('https://login.microsoftonline.com/common/oauth2/v2.0/token'),
  OAUTH_PROVIDER_B_API_URL: httpUrl('https://graph.microsoft.com'),
  /**
   * Outbound mail connections (IMAP/SMTP probes and sync) may reach loopback, private, CGNAT,
   * link-local and unique-local addresses: for mail servers on the instance's own network. Off by
   * default (server/core/net/network-guard.ts refuses them); cloud metadata addresses stay refused.
   */
  MAIL_ALLOW_PRIVATE_HOSTS: flag,
  /** Initial sync of a new mailbox: mail received in the last N days, at most M messages per folder. */
  MAIL_INITIAL_SYNC_DAYS: positiveInt(30),
  MAIL_INITIAL_SYNC_MAX_PER_FOLDER: positiveInt(1000),
  /**
   * A folder whose initial window holds more messages than this is listed from their headers first (every
   * message shows in the lists at once) and its bodies are fetched right after, newest first (the body pass).
   */
  MAIL_HEADERS_FIRST_ABOVE: positiveInt(500),
  /**
   * Mailbox health (runner/mail/health-watchdog.ts): the watch heartbeat is written at most every N
   * seconds; an `active` mailbox is stalled after no successful sync for N minutes (3x the 5-min poll
   * while IDLE watches), a watch heartbeat older than N seconds, or mail mirrored and not journaled
   * for N minutes.
   */
  MAIL_WATCH_HEARTBEAT_SECONDS: positiveInt(60),
  /**
   * How long a runner's lease on a mailbox lasts without renewal (server/mail/lease.ts): a dead runner's
   * mailboxes are taken over within this plus a fifth of it. Renewals come every 40 % of it, so shorter
   * leases mean quicker take-overs and more writes; at least 5 s.
   */
  MAIL_LEASE_SECONDS: z.coerce.number().int().min(5).max(3_600).default(25),
  MAIL_STALL_SYNC_MINUTES: positiveInt(20),
  MAIL_STALL_WATCH_SECONDS: positiveInt(300),
  MAIL_STALL_DISPATCH_MINUTES: positiveInt(10),
  /** API root of `mail_provider_a` (Gmail-compatible); tests point it at a local fake. */
  MAIL_PROVIDER_A_API_URL: apiUrl('https://gmail.googleapis.com/gmail/v1', 'MAIL_PROVIDER_A_API_URL'),
  /** API root of `mail_provider_b` (Microsoft-Graph-compatible); tests point it at a local fake. */
  MAIL_PROVIDER_B_API_URL: apiUrl('https://graph.microsoft.com/v1.0', 'MAIL_PROVIDER_B_API_URL'),
  /**
   * Provider quotas each account's calls are budgeted under (server/mail/providers/call-budget.ts):
   * Gmail quota units per user per minute (Google grants new projects 6,000; raise it to what the
   * project's console shows), Graph requests per mailbox per 10 minutes.
   */
  MAIL_PROVIDER_A_QUOTA_UNITS_PER_MINUTE: positiveInt(6000),
  MAIL_PROVIDER_B_REQUESTS_PER_10_MINUTES: positiveInt(10_000),
  /**
   * Port of the runner's health endpoint (runner/health-server.ts: GET /healthz, GET /readyz) for an
   * orchestrator's probes; unset or 0: the runner listens on no port. On RUNNER_HEALTH_HOST (default 127.0.0.1).
   */
  RUNNER_HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  RUNNER_HEALTH_HOST: z.string().default('127.0.0.1'),
  /** Simultaneous live runs of one workflow unless its settings say otherwise (spec default 10). */
  WORKFLOW_DEFAULT_CONCURRENCY: positiveInt(10),
  /** The highest per-workflow concurrency a member may set. */
  WORKFLOW_MAX_CONCURRENCY: positiveInt(100),
  /** Simultaneous live runs of all workflows together (spec: 100). */
  INSTANCE_MAX_CONCURRENCY: positiveInt(100),
  /**
   * How deep runs may call each other: a sub-workflow run or loop iteration is its caller's level + 1,
   * a top-level run is level 0; a start beyond this level fails the calling step `sub_workflow_depth_exceeded`.
   */
  WORKFLOW_MAX_CALL_DEPTH: z.coerce.number().int().min(1).max(64).default(8),
  /**
   * A member's live runs that hold no slot (sub-workflow runs, loop iterations, test runs, evaluation
   * runs): beyond it a called run waits to start and a test run is refused (409 `workflow.run_limit_reached`).
   */
  MEMBER_MAX_SLOTLESS_RUNS: positiveInt(500),
  /** How long a step may wait for room under MEMBER_MAX_SLOTLESS_RUNS before it fails `member_run_limit`. */
  MEMBER_SLOTLESS_WAIT_SECONDS: positiveInt(600),
  /** The blast-radius guard: sends of one mailbox per hour (any origin) before its sends are held. */
  SEND_CAP_MAILBOX_PER_HOUR: positiveInt(200),
  /** Sends of one workflow per hour before they are held (a workflow may set a lower `sendCapPerHour`). */
  SEND_CAP_WORKFLOW_PER_HOUR: positiveInt(50),
  /** Auto-reply ping-pong: automated sends to one counterpart within this many minutes before a hold. */
  SEND_GUARD_LOOP_WINDOW_MINUTES: positiveInt(10),
  SEND_GUARD_LOOP_MAX_SENDS: positiveInt(2),
  /** Sends of one workflow to one recipient within an hour before a hold. */
  SEND_GUARD_REPEAT_MAX_SENDS: positiveInt(3),
  /**
   * Hosts (comma-separated names or CIDRs) the HTTP request node may reach although the network guard
   * refuses private addresses: for self-hosters calling services on their own network. Empty by default.
   */
  HTTP_NODE_ALLOW_HOSTS: optionalText,
  /**
   * Node types members may not use in their workflows nor install from a template, nor run (a step of
   * one fails `node_type_forbidden`, whenever its version was published); comma-separated type names,
   * e.g. `http.request`; administrators are exempt. Empty by default.
   */
  FORBIDDEN_NODE_TYPES: z
    .string()
    .optional()
    .transform((value) => [...new Set((value ?? '').split(',').map((name) => name.trim()).filter(Boolean))].sort()),
  /** Days the body and attachments of a finished outbound message are kept (subject, recipients and journal stay). */
  OUTBOUND_CONTENT_RETENTION_DAYS: positiveInt(30),
  /** The webmail's undo window: a message sent from the webmail leaves this many seconds later (0: at once, no undo). */
  SEND_UNDO_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
  /**
   * AI connections of provider `ai_local` (a model runtime on the instance's own network) may point at
   * loopback, private, CGNAT, link-local and unique-local addresses. Off by default; other AI
   * providers never may, and cloud metadata addresses stay refused (server/domains/llm/base-url.ts).
   */
  LLM_LOCAL_ALLOW_PRIVATE: flag,
  /**
   * Hosts (comma-separated names or CIDRs) every AI connection's base URL may use although the network
   * guard refuses private addresses (a compatible server on the instance's own network; the end-to-end
   * tests' fake vendor on 127.0.0.1). Empty by default; metadata addresses stay refused.
   */
  LLM_ALLOW_HOSTS: optionalText,
  /**
   * Members may store their own key for an AI provider (connections of type `llm_provider`), used by
   * their own AI nodes. Off by default: such connections are refused (403 `credential.llm_member_keys_disabled`).
   */
  LLM_MEMBER_KEYS: flag,
  /**
   * The operator's control plane (support threads, branding; server/core/control-plane-config.ts): its
   * https API root and this instance's credential. All three or none; none: the instance is not linked.
   */
  CONTROL_PLANE_URL: optionalText,
  CONTROL_PLANE_INSTANCE_ID: optionalText,
  CONTROL_PLANE_SECRET: optionalText,
  // How often a linked runner pulls the team's replies: the crontab's minute by default; shorter chains each
  // exchange to the next (server/domains/support/sync/job.ts).
  SUPPORT_SYNC_INTERVAL_SECONDS: z.coerce.number().int().min(2).max(60).default(60),
});

const configSchema = environmentSchema
  .superRefine((env, context) => {
    for (const message of controlPlaneProblems(env)) context.addIssue({ code: 'custom', message, path: [message.split(' ')[0]!] });
  })
  // `controlPlane`: the link when the instance is linked to its operator's control plane, else null.
  .transform((env) => ({ ...env, controlPlane: controlPlaneLinkOf(env) }));

export type Config = z.output<typeof configSchema>;

let cached: Config | null = null;

export function config(): Config {
  if (!cached) cached = configSchema.parse(process.env);
  return cached;
}

/** Tests change the environment between files; this drops the parsed copy. */
export function resetConfigForTests(): void {
  cached = null;
}

export function isProduction(): boolean {
  return config().NODE_ENV === 'production';
}

/**
 * The base URL of links the service hands out: PUBLIC_URL, else the address the web server is
 * configured to listen on (a wildcard address becomes `localhost`). Never derived from a request.
 */
export function publicUrl(): string {
  const { PUBLIC_URL, HOST, PORT } = config();
  if (PUBLIC_URL) return PUBLIC_URL.replace(/\/+$/, '');
  const host = HOST === '0.0.0.0' || HOST === '::' ? 'localhost' : HOST.includes(':') ? `[${HOST}]` : HOST;
  return `http://${host}:${PORT}`;
}

export function databaseUrl(): string {
  const url = config().DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set (npm start sets it when it starts the embedded PostgreSQL)');
  return url;
}
