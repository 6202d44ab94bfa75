/**
 * The instance configuration, parsed once from the environment. Every variable is listed with its
 * meaning in `.env.example`; keep the two in step.
 */
import { z } from 'zod';

const flag = z
  .enum(['0', '1', 'true', 'false', ''])
  .optional()
  .transform((value) => value === '1' || value === 'true');

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value && value.trim() !== '' ? value.trim() : null));

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const configSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: optionalText,
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  /** Public base URL, used for links (invitation accept URLs). Defaults to http://HOST:PORT. */
  PUBLIC_URL: optionalText,
  TRUST_PROXY: flag,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('.data'),
  /** Preferred port of the embedded PostgreSQL (used when DATABASE_URL is unset); a free one if taken. */
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(5433),
  SESSION_TTL_DAYS: positiveInt(30),
  INVITATION_TTL_DAYS: positiveInt(7),
  LOGIN_MAX_ATTEMPTS: positiveInt(10),
  LOGIN_WINDOW_SECONDS: positiveInt(300),
  API_KEY_RATE_LIMIT: positiveInt(600),
  TABLES_MAX_TABLES: positiveInt(200),
  TABLES_MAX_COLUMNS: positiveInt(50),
  TABLES_MAX_ROWS: positiveInt(100_000),
  TABLES_MAX_CELL_CHARS: positiveInt(10_000),
  /** CSV exports streaming at once in this process (each holds a pool connection); default: a third of the pool. */
  TABLES_MAX_EXPORTS: z.coerce.number().int().positive().optional(),
  TABLES_MAX_EXPORTS_PER_MEMBER: positiveInt(2),
  /** An export whose reader takes nothing for this long is ended and its connection freed. */
  TABLES_EXPORT_IDLE_SECONDS: positiveInt(30),
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
});

export type Config = z.infer<typeof configSchema>;

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

export function publicUrl(): string {
  const { PUBLIC_URL, HOST, PORT } = config();
  return (PUBLIC_URL ?? `http://${HOST === '0.0.0.0' ? 'localhost' : HOST}:${PORT}`).replace(/\/+$/, '');
}

export function databaseUrl(): string {
  const url = config().DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set (npm start sets it when it starts the embedded PostgreSQL)');
  return url;
}
