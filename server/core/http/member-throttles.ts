/**
 * Per-member throttles on what costs money or reaches outside the instance: probing a mail server
 * with a password, testing a credential, forcing an analysis, test and evaluation runs, uploads,
 * assistant turns. Each is one bucket per member in `rate_limit_buckets`, counted over its own sliding
 * window whatever the credential (session or any of the member's keys), so neither more sessions nor
 * more keys buy more of it. A route declares its bucket once in its metadata (`throttle` in
 * server/trpc/meta.ts or plain-route.ts); the pipeline counts it after authorisation and the OpenAPI
 * document describes it from the same declaration.
 *
 * Sizes: far above what a person does by hand (see README "Limits"), low enough that a script cannot
 * turn the instance into a password-guessing relay, a port scanner or an AI bill.
 */
import { config, type Config } from '../config';
import { rateLimitError } from '../errors/app-error';
import { hit } from './rate-limit';

export interface ThrottleBucket {
  /** The setting that sizes it (hits per window). */
  setting: keyof Config & `THROTTLE_${string}`;
  /** The value of that setting when unset (what the document and the README show). */
  defaultLimit: number;
  windowSeconds: number;
  /** What is counted, for the document: "at most N <what> per <window>". */
  what: { en: string; fr: string };
}

export const throttleBuckets = {
  connection_checks: {
    setting: 'THROTTLE_CONNECTION_CHECKS',
    defaultLimit: 10,
    windowSeconds: 60,
    what: {
      en: 'connection checks (IMAP/SMTP mailbox connections and credential tests together)',
      fr: 'vérifications de connexion (connexions de boîtes IMAP/SMTP et tests de connexions confondus)',
    },
  },
  forced_analyses: {
    setting: 'THROTTLE_FORCED_ANALYSES',
    defaultLimit: 10,
    windowSeconds: 3600,
    what: { en: 'forced mailbox analyses (`force: true`)', fr: 'analyses de boîte forcées (`force: true`)' },
  },
  test_runs: {
    setting: 'THROTTLE_TEST_RUNS',
    defaultLimit: 60,
    windowSeconds: 60,
    what: { en: 'test runs', fr: 'essais' },
  },
  eval_runs: {
    setting: 'THROTTLE_EVAL_RUNS',
    defaultLimit: 30,
    windowSeconds: 3600,
    what: { en: 'evaluation runs started', fr: 'évaluations lancées' },
  },
  uploads: {
    setting: 'THROTTLE_UPLOADS',
    defaultLimit: 60,
    windowSeconds: 60,
    what: { en: 'attachment uploads', fr: 'téléversements de pièces jointes' },
  },
  assistant_turns: {
    setting: 'THROTTLE_ASSISTANT_TURNS',
    defaultLimit: 30,
    windowSeconds: 60,
    what: { en: 'assistant turns', fr: 'tours de l’assistant' },
  },
} as const satisfies Record<string, ThrottleBucket>;

export type ThrottleBucketName = keyof typeof throttleBuckets;

export function throttleLimiterKey(bucket: ThrottleBucketName, memberId: string): string {
  return `throttle:${bucket}:${memberId}`;
}

/** The bucket's size on this instance. */
export function throttleLimit(bucket: ThrottleBucketName): number {
  return config()[throttleBuckets[bucket].setting];
}

/**
 * Counts one use of `bucket` by the member; 429 `request.throttled` (Retry-After,
 * `details.retryAfterSeconds`, the bucket, its limit and window) when the window is full. A refused
 * use is not counted (see rate-limit.ts), so waiting the given delay is enough.
 */
export async function throttleMember(bucket: ThrottleBucketName, memberId: string): Promise<void> {
  const { windowSeconds } = throttleBuckets[bucket];
  const limit = throttleLimit(bucket);
  const result = await hit({ key: throttleLimiterKey(bucket, memberId), limit, windowSeconds });
  if (!result.allowed) throw rateLimitError('request.throttled', result.retryAfterSeconds, { bucket, limit, windowSeconds });
}

function windowText(seconds: number, lang: 'en' | 'fr'): string {
  if (seconds === 3600) return lang === 'en' ? 'hour' : 'heure';
  if (seconds === 60) return 'minute';
  return lang === 'en' ? `${seconds} seconds` : `${seconds} secondes`;
}

/** The sentence every throttled route's OpenAPI description ends with. */
export function throttleDescription(bucket: ThrottleBucketName, lang: 'en' | 'fr'): string {
  const { setting, defaultLimit, windowSeconds, what } = throttleBuckets[bucket];
  const window = windowText(windowSeconds, lang);
  return lang === 'en'
    ? `Throttled per member, whatever the credential: at most ${defaultLimit} ${what.en} per sliding ${window} (\`${setting}\`); beyond, 429 \`request.throttled\` with \`Retry-After\` and \`details.retryAfterSeconds\`.`
    : `Limité par membre, quelle que soit l’authentification : au plus ${defaultLimit} ${what.fr} par ${window} glissante (\`${setting}\`) ; au-delà, 429 \`request.throttled\` avec \`Retry-After\` et \`details.retryAfterSeconds\`.`;
}
