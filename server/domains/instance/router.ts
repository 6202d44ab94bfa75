import { z } from 'zod';
import { config } from '../../core/config';
import { route } from '../../trpc/meta';
import { procedure, router } from '../../trpc/procedures';

const color = z.string().regex(/^#[0-9A-Fa-f]{6}$/).nullable();

const brandingSchema = z
  .object({
    name: z.string(),
    source: z.enum(['control_plane', 'environment']),
    logo: z.object({ light: z.url().nullable(), dark: z.url().nullable() }),
    favicon: z.url().nullable(),
    colors: z.object({ primary: color, onPrimary: color, accent: color, onAccent: color }),
    supportUrl: z.url().nullable(),
    poweredBy: z.string().nullable(),
    login: z.object({
      welcome: z.object({ en: z.string(), fr: z.string() }).nullable(),
      image: z.url().nullable(),
    }),
    instance: z.object({ suspended: z.boolean() }),
  })
  .meta({ id: 'Branding' });

function colorOrNull(value: string | null): string | null {
  return value && /^#[0-9A-Fa-f]{6}$/.test(value) ? value : null;
}

export function currentBranding(): z.infer<typeof brandingSchema> {
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

export const instanceRouter = router({
  branding: procedure
    .meta(
      route({
        method: 'GET',
        path: '/api/v1/branding',
        access: { kind: 'public' },
        tag: 'Instance',
        summary: { en: 'Brand of the instance', fr: 'Identité visuelle de l’instance' },
        description: {
          en: 'Name, logos, colours, support link and sign-in welcome, from the instance’s environment variables.',
          fr: 'Nom, logos, couleurs, lien d’assistance et message d’accueil, tirés des variables d’environnement de l’instance.',
        },
      }),
    )
    .output(brandingSchema)
    .query(() => currentBranding()),
});
