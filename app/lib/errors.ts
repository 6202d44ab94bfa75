/**
 * Reading the service's error envelope from a tRPC client error (`error.data.appError`) and turning it
 * into a sentence in the interface language, falling back to the server's own message.
 */
import { TRPCClientError } from '@trpc/client';
import type { Dictionary } from '@/app/i18n';

export interface AppErrorInfo {
  code: string;
  message: string;
  details: Record<string, unknown>;
}

export function appErrorOf(error: unknown): AppErrorInfo | null {
  if (!(error instanceof TRPCClientError)) return null;
  const data = error.data as { appError?: Partial<AppErrorInfo> } | undefined;
  const appError = data?.appError;
  if (!appError || typeof appError.code !== 'string') return null;
  return {
    code: appError.code,
    message: typeof appError.message === 'string' ? appError.message : '',
    details: appError.details && typeof appError.details === 'object' ? appError.details : {},
  };
}

export function errorCodeOf(error: unknown): string | null {
  return appErrorOf(error)?.code ?? null;
}

/** Seconds to wait from a rate-limit error, or null. */
export function retryAfterOf(error: unknown): number | null {
  const value = appErrorOf(error)?.details.retryAfterSeconds;
  return typeof value === 'number' && value > 0 ? Math.ceil(value) : null;
}

export function describeError(error: unknown, t: Dictionary): string {
  const info = appErrorOf(error);
  if (!info) {
    // A client error without our envelope never reached the service (network down, proxy page).
    return error instanceof TRPCClientError ? t.errors.network : t.errors.generic;
  }
  if (info.code === 'request.bad_request') {
    const issues = Array.isArray(info.details.issues) ? (info.details.issues as { path?: unknown }[]) : [];
    const fields = [...new Set(issues.map((issue) => (typeof issue.path === 'string' ? issue.path : '')).filter(Boolean))];
    if (fields.length > 0) return t.errors.invalidFields(fields.join(', '));
  }
  const translated = (t.errors.codes as Record<string, string | undefined>)[info.code];
  return translated ?? (info.message || t.errors.generic);
}
