/**
 * GET and POST /api/v1/approvals/t/{token}/{decision} — the approval email's links (spec: Approvals),
 * authorised by the single-use token in the URL (no session), rate-limited per client address.
 *
 * A GET never decides by itself: mail gateways' link scanners and previews fetch every link of a
 * message, so a decision taken on GET would be taken by a robot. The GET answers a standalone page
 * showing the approval and a one-button form; the form's POST (same path) decides. The POST must
 * carry the page token the GET put in the form (an HMAC under the instance key, valid 1 hour) and
 * must not come from another site (`Origin` / `Sec-Fetch-Site`). See server/domains/approvals/link.ts.
 *
 * Pages carry strict headers (a CSP without script, no framing, no caching, no referrer). A browser
 * navigation (`Sec-Fetch-Mode: navigate`) gets its 404 and 403 as pages too; any other client gets the
 * JSON envelope (`approval.not_found`, `auth.cross_origin`).
 */
import { z } from 'zod';
import { config } from '../core/config';
import { appError } from '../core/errors/app-error';
import { crossOriginReason } from '../core/http/cross-origin';
import { decideByLink, showLink, type LinkView, preferredLanguage, refusedPage, renderLinkPage } from '../domains/approvals';
import { currentBranding } from '../domains/instance';
import { plainRoute } from './plain/plain-route';

const pageHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
  // Not `no-referrer`: under it a browser sends `Origin: null` with the form's POST, which the
  // cross-site check must refuse, so the confirmation button could never decide. `same-origin` still
  // keeps the token-bearing URL from every other site.
  'referrer-policy': 'same-origin',
};

const params = z.object({
  token: z.string().min(1).max(200).describe('The link token from the approval email.'),
  decision: z.string().min(1).max(20).describe('`approve` or `reject` (anything else is 404).'),
});

function isNavigation(request: Request): boolean {
  return request.headers.get('sec-fetch-mode')?.toLowerCase() === 'navigate' || request.headers.get('sec-fetch-dest')?.toLowerCase() === 'document';
}

function page(status: number, html: string): Response {
  return new Response(html, { status, headers: pageHeaders });
}

function answer(request: Request, link: LinkView, actionPath: string): Response {
  const rendered = renderLinkPage(link, { brandName: currentBranding().name, language: preferredLanguage(request.headers.get('accept-language')), actionPath });
  if (rendered.status === 404 && !isNavigation(request)) throw appError('approval.not_found');
  if (rendered.status === 403 && !isNavigation(request)) throw appError('auth.cross_origin', { details: { reason: 'page_token' } });
  return page(rendered.status, rendered.html);
}

const pathOf = (token: string, decision: string) => `/api/v1/approvals/t/${encodeURIComponent(token)}/${encodeURIComponent(decision)}`;

const gettingDescription = {
  en: 'The page an approval email’s link opens (no session: authorised by the single-use token in the URL; rate-limited per client address, 429 `request.rate_limited`). It NEVER decides by itself: link scanners of mail gateways fetch every link, so a GET only shows the approval (title, details, workflow, deadline) and a one-button form that posts to the same path, where the decision is taken. This is a deliberate reading of the spec’s GET route. Once the approval is decided (by the link or in the application), expired or its run cancelled, the page shows what holds. 200 answers a standalone, branded, bilingual (English and French) HTML page with strict headers (CSP without scripts, `X-Frame-Options: DENY`, `no-store`, `Referrer-Policy: same-origin`). An unknown token, or a decision other than `approve`/`reject`, is 404 (a page for a browser navigation, else `approval.not_found`).',
  fr: 'La page qu’ouvre un lien d’e-mail d’approbation (sans session : autorisée par le jeton à usage unique de l’URL ; limitée par adresse cliente, 429 `request.rate_limited`). Elle ne décide JAMAIS d’elle-même : les analyseurs de liens des passerelles de messagerie ouvrent tous les liens, donc un GET affiche seulement l’approbation (titre, détails, workflow, échéance) et un formulaire à un bouton qui envoie vers le même chemin, où la décision est prise. C’est une lecture délibérée de la route GET de la spécification. Une fois l’approbation décidée (par le lien ou dans l’application), expirée ou son exécution annulée, la page montre ce qui tient. 200 répond une page HTML autonome, à la marque de l’instance, bilingue (anglais et français), avec des en-têtes stricts (CSP sans script, `X-Frame-Options: DENY`, `no-store`, `Referrer-Policy: same-origin`). Un jeton inconnu, ou une décision autre que `approve`/`reject`, donne 404 (une page pour une navigation, sinon `approval.not_found`).',
};

export const approvalLinkPageRoute = plainRoute({
  method: 'GET',
  path: '/api/v1/approvals/t/{token}/{decision}',
  access: { kind: 'urlToken' },
  params,
  rateLimit: { limit: 30, windowSeconds: 60 },
  success: { status: 200, mediaType: 'text/html', description: { en: 'The approval and its confirmation form (or what holds).', fr: 'L’approbation et son formulaire de confirmation (ou ce qui tient).' } },
  errors: ['approval.not_found'],
  tag: 'Approvals',
  summary: { en: 'Open an approval email link (never decides)', fr: 'Ouvrir un lien d’e-mail d’approbation (ne décide jamais)' },
  description: gettingDescription,
  async handle({ request, params: { token, decision } }) {
    return answer(request, await showLink(token, decision), pathOf(token, decision));
  },
});

export const approvalLinkDecideRoute = plainRoute({
  method: 'POST',
  path: '/api/v1/approvals/t/{token}/{decision}',
  access: { kind: 'urlToken' },
  params,
  body: {
    mediaTypes: ['application/x-www-form-urlencoded'],
    description: { en: 'The confirmation form: `pageToken`, as the page gave it.', fr: 'Le formulaire de confirmation : `pageToken`, tel que la page l’a donné.' },
  },
  maxBodyBytes: 4_096,
  rateLimit: { limit: 30, windowSeconds: 60 },
  success: { status: 200, mediaType: 'text/html', description: { en: 'What happened: decided now, or what holds.', fr: 'Ce qui s’est passé : décidée maintenant, ou ce qui tient.' } },
  errors: ['approval.not_found', 'auth.cross_origin'],
  tag: 'Approvals',
  summary: { en: 'Confirm a decision from an approval email link', fr: 'Confirmer une décision depuis un lien d’e-mail d’approbation' },
  description: {
    en: 'The POST of the confirmation form the link’s page shows (the GET never decides: link scanners fetch every link). Decides the approval once (single-use link; the run resumes in the same transaction), recorded as decided by the approver’s address when the email went to one address, else `email link`. Refused with 403 (a page for a browser navigation, else `auth.cross_origin`) when the page token is missing, forged or older than 1 hour, or when the request comes from another site (`Origin`, `Sec-Fetch-Site`); nothing is decided then. A repeat, or an approval decided in the application, expired or cancelled, answers 200 with a page saying what holds. Unknown token or decision: 404. Rate-limited per client address.',
    fr: 'L’envoi du formulaire de confirmation affiché par la page du lien (le GET ne décide jamais : les analyseurs de liens ouvrent tous les liens). Décide l’approbation une seule fois (lien à usage unique ; l’exécution reprend dans la même transaction), enregistrée comme décidée par l’adresse de l’approbateur quand l’e-mail est allé à une seule adresse, sinon `email link`. Refusé avec 403 (une page pour une navigation, sinon `auth.cross_origin`) quand le jeton de page manque, est forgé ou date de plus d’une heure, ou quand la requête vient d’un autre site (`Origin`, `Sec-Fetch-Site`) ; rien n’est décidé alors. Une répétition, ou une approbation décidée dans l’application, expirée ou annulée, répond 200 avec une page disant ce qui tient. Jeton ou décision inconnus : 404. Limité par adresse cliente.',
  },
  async handle({ request, params: { token, decision }, body }) {
    if (crossOriginReason(request.headers, config().PUBLIC_URL ?? null)) {
      if (!isNavigation(request)) throw appError('auth.cross_origin', { details: { reason: 'cross_site' } });
      const refused = refusedPage({ brandName: currentBranding().name, language: preferredLanguage(request.headers.get('accept-language')) });
      return page(refused.status, refused.html);
    }
    const form = new URLSearchParams(body.toString('utf8'));
    return answer(request, await decideByLink(token, decision, form.get('pageToken')), pathOf(token, decision));
  },
});
