import { z } from 'zod';

const color = z.string().regex(/^#[0-9A-Fa-f]{6}$/).nullable();

export const brandingSchema = z
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

export type Branding = z.infer<typeof brandingSchema>;
