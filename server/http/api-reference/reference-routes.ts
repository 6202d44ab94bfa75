/**
 * GET /api/reference — the interactive API reference: this instance's own OpenAPI document (the one
 * GET /api/v1/openapi.json serves, in English or French) rendered by Swagger UI, whose files are served
 * by GET /api/reference/assets/{name} from this origin. Public, like the document itself.
 *
 * The page's policy is its own and as strict as Swagger UI allows: scripts, styles, images and fetches
 * from this origin only (plus `data:` images, the stylesheet's icons), no inline script, no framing, no
 * form posting anywhere. Try-it calls go to this origin, with the key the reader typed and without the
 * application's cookies (browser/reference.js).
 */
import { z } from 'zod';
import { appError } from '../../core/errors/app-error';
import { currentBranding } from '../../domains/instance';
import { plainRoute } from '../plain/plain-route';
import { isReferenceAssetName, referenceAssetNames, referenceAssetResponse } from './reference-assets';
import { renderReferencePage } from './reference-page';
import { referenceAssetsPath, referencePagePath } from './reference-paths';
import { referenceLanguage, referenceTheme } from './reference-preferences';

export const referencePagePolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': referencePagePolicy,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  // The language comes from the query, the language cookie or Accept-Language: nothing to cache.
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
};

export const referencePageRoute = plainRoute({
  method: 'GET',
  path: referencePagePath,
  access: { kind: 'public' },
  params: z.object({}),
  query: z
    .object({
      lang: z
        .enum(['en', 'fr'])
        .optional()
        .describe('Language of the page and of the document it shows. Without it: the language chosen in the application, else the browser’s (Accept-Language).'),
    })
    .strict(),
  success: {
    status: 200,
    mediaType: 'text/html',
    description: { en: 'The reference page.', fr: 'La page de la référence.' },
  },
  tag: 'Instance',
  summary: { en: 'Interactive API reference', fr: 'Référence interactive de l’API' },
  description: {
    en: 'This description (`GET /api/v1/openapi.json`) as a page to read and try, in English or French (`lang`, with a switch on the page). To call an operation, paste an API key in the page’s Authorize dialog: it is sent as `Authorization: Bearer` to this instance only, without the application’s cookies, and never stored. Everything the page loads comes from this instance (strict policy: no other origin, no inline script).',
    fr: 'Cette description (`GET /api/v1/openapi.json`) sous forme de page à lire et à essayer, en anglais ou en français (`lang`, avec un sélecteur sur la page). Pour appeler une opération, collez une clé d’API dans la fenêtre Authorize de la page : elle est envoyée en `Authorization: Bearer` à cette instance seulement, sans les cookies de l’application, et n’est jamais enregistrée. Tout ce que charge la page vient de cette instance (politique stricte : aucune autre origine, aucun script en ligne).',
  },
  handle({ request, query }) {
    const cookieHeader = request.headers.get('cookie');
    const language = referenceLanguage({ requested: query.lang, cookieHeader, acceptLanguage: request.headers.get('accept-language') });
    const html = renderReferencePage({ language, theme: referenceTheme(cookieHeader), brandName: currentBranding().name });
    return new Response(html, { status: 200, headers: pageHeaders });
  },
});

export const referenceAssetRoute = plainRoute({
  method: 'GET',
  path: `${referenceAssetsPath}/{name}`,
  access: { kind: 'public' },
  params: z.object({ name: z.string().min(1).max(100).describe(`One of the page’s files: ${referenceAssetNames.map((name) => `\`${name}\``).join(', ')}.`) }),
  success: {
    status: 200,
    mediaType: 'text/javascript',
    description: { en: 'The file (JavaScript or CSS).', fr: 'Le fichier (JavaScript ou CSS).' },
  },
  tag: 'Instance',
  summary: { en: 'A file of the API reference page', fr: 'Un fichier de la page de référence de l’API' },
  description: {
    en: 'The scripts and stylesheets of `GET /api/reference`: Swagger UI’s, from the package installed with this instance, and the page’s own. Gzipped when the client accepts it; `ETag` with `Cache-Control: no-cache`, so a client revalidates and gets 304 while its copy is current. Any other name: 404.',
    fr: 'Les scripts et feuilles de style de `GET /api/reference` : ceux de Swagger UI, tirés du paquet installé avec cette instance, et ceux de la page. Compressés en gzip quand le client l’accepte ; `ETag` avec `Cache-Control: no-cache`, donc un client revalide et reçoit 304 tant que sa copie est à jour. Tout autre nom : 404.',
  },
  handle({ request, params }) {
    if (!isReferenceAssetName(params.name)) throw appError('request.not_found');
    return referenceAssetResponse(params.name, request);
  },
});
