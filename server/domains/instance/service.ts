/**
 * The instance's brand: its environment variables (`currentBranding`: the name in e-mails and link pages), and
 * the operator's brand over them when the instance is linked to a control plane and the sync kept one
 * (`brandingAnswer`: `GET /api/v1/branding` and server components, app/lib/branding.ts).
 */
import { config } from '../../core/config';
import { operatorBranding, withOperatorBranding } from '../support';
import type { Branding } from './schemas';

function colorOrNull(value: string | null): string | null {
  return value && /^#[0-9A-Fa-f]{6}$/.test(value) ? value : null;
}

export function currentBranding(): Branding {
  const c = config();
  const welcomeEn = c.BRAND_LOGIN_WELCOME_EN;
  return {
    name: c.BRAND_NAME,
    source: 'environment',
    logo: { light: c.BRAND_LOGO_LIGHT_URL, dark: c.BRAND_LOGO_DARK_URL ?? c.BRAND_LOGO_LIGHT_URL },
    favicon: c.BRAND_FAVICON_URL,
    colors: {
      primary: colorOrNull(c.BRAND_COLOR_PRIMARY),
      onPrimary: colorOrNull(c.BRAND_COLOR_ON_PRIMARY),
      accent: colorOrNull(c.BRAND_COLOR_ACCENT),
      onAccent: colorOrNull(c.BRAND_COLOR_ON_ACCENT),
    },
    supportUrl: c.BRAND_SUPPORT_URL,
    poweredBy: c.BRAND_POWERED_BY,
    login: {
      welcome: welcomeEn ? { en: welcomeEn, fr: c.BRAND_LOGIN_WELCOME_FR ?? welcomeEn } : null,
      image: c.BRAND_LOGIN_IMAGE_URL,
    },
    instance: { suspended: c.INSTANCE_SUSPENDED },
  };
}

/** The brand answered to the public route and pages: `source: control_plane` when the operator's applies. */
export async function brandingAnswer(): Promise<Branding> {
  return withOperatorBranding(currentBranding(), await operatorBranding.read());
}
