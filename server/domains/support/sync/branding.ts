/**
 * The brand the instance shows when its operator provides one (`GET /api/v1/branding`, the sign-in page): the
 * operator's values over the environment's, from the copy the sync keeps in the database, never from the operator
 * directly, so a slow or absent operator never holds a page. The kept copy is validated again when read (colours
 * `#RRGGBB`, https URIs): a bad row gives the environment's brand, not a broken page. Read at most every
 * `memoMs` per process; a read slower than `readTimeoutMs` (a busy database) answers the last known brand.
 */
import { defaultSupportSyncStore } from './default-store';
import { controlPlaneLink } from './link';
import { wireBranding } from './protocol';
import type { OperatorBranding, SupportSyncStore } from './store';

export type BrandingFields = {
  name: string;
  source: 'control_plane' | 'environment';
  logo: { light: string | null; dark: string | null };
  favicon: string | null;
  colors: { primary: string | null; onPrimary: string | null; accent: string | null; onAccent: string | null };
  supportUrl: string | null;
  poweredBy: string | null;
  login: { welcome: { en: string; fr: string } | null; image: string | null };
  instance: { suspended: boolean };
};

/** The operator's values where it gives one, the environment's elsewhere; `source: control_plane`. */
export function withOperatorBranding(environment: BrandingFields, operator: OperatorBranding | null): BrandingFields {
  if (!operator) return environment;
  return {
    ...environment,
    name: operator.name ?? environment.name,
    source: 'control_plane',
    logo: {
      light: operator.logo.light ?? environment.logo.light,
      dark: operator.logo.dark ?? operator.logo.light ?? environment.logo.dark,
    },
    favicon: operator.favicon ?? environment.favicon,
    colors: {
      primary: operator.colors.primary ?? environment.colors.primary,
      onPrimary: operator.colors.onPrimary ?? environment.colors.onPrimary,
      accent: operator.colors.accent ?? environment.colors.accent,
      onAccent: operator.colors.onAccent ?? environment.colors.onAccent,
    },
    supportUrl: operator.supportUrl ?? environment.supportUrl,
    poweredBy: operator.poweredBy ?? environment.poweredBy,
    login: { welcome: operator.login.welcome ?? environment.login.welcome, image: operator.login.image ?? environment.login.image },
  };
}

export type OperatorBrandingReader = { read(): Promise<OperatorBranding | null> };

/** A memoised reader of the kept branding (one per process). `store` null: never any (not bound, not linked). */
export function operatorBrandingReader(
  store: () => Pick<SupportSyncStore, 'cachedBranding'> | null,
  options: { memoMs?: number; readTimeoutMs?: number; now?: () => number } = {},
): OperatorBrandingReader {
  const memoMs = options.memoMs ?? 15_000;
  const readTimeoutMs = options.readTimeoutMs ?? 500;
  const now = options.now ?? (() => Date.now());
  let last: { value: OperatorBranding | null; at: number } | null = null;
  let inFlight: Promise<OperatorBranding | null> | null = null;

  async function load(source: Pick<SupportSyncStore, 'cachedBranding'>): Promise<OperatorBranding | null> {
    try {
      const kept = await source.cachedBranding();
      const parsed = kept ? wireBranding.safeParse(kept.branding) : null;
      const value = parsed?.success ? parsed.data : null;
      last = { value, at: now() };
      return value;
    } catch {
      return last?.value ?? null;
    } finally {
      inFlight = null;
    }
  }

  return {
    async read() {
      const source = store();
      if (!source) return null;
      if (last && now() - last.at < memoMs) return last.value;
      inFlight ??= load(source);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<OperatorBranding | null>((resolve) => {
        timer = setTimeout(() => resolve(last?.value ?? null), readTimeoutMs);
      });
      try {
        return await Promise.race([inFlight, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The process's reader of the kept branding: nothing when the instance is not linked. */
export const operatorBranding: OperatorBrandingReader = operatorBrandingReader(() => (controlPlaneLink() ? defaultSupportSyncStore() : null));
