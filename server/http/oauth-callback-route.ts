/**
 * GET /api/v1/oauth/{provider}/callback — where a provider sends the member's browser back after
 * consent, so a plain route (it answers a redirect, not JSON). Access: the session of the member who
 * started the flow (the SameSite=Lax cookie travels on this top-level navigation) together with the
 * flow's single-use `state`; see server/domains/oauth/callback.ts for why both. Every outcome of the
 * flow itself is a 302 to the app (`?connected=<provider>` or `?error=<code>`); only a request the
 * pipeline refuses (no session, an API key, an oversized parameter) answers the JSON envelope.
 */
import { z } from 'zod';
import { appError } from '../core/errors/app-error';
import { completeOAuthFlow, callbackQuery, providerParam } from '../domains/oauth';
import { plainRoute } from './plain/plain-route';

export const oauthCallbackRoute = plainRoute({
  method: 'GET',
  path: '/api/v1/oauth/{provider}/callback',
  access: { kind: 'session' },
  params: providerParam,
  query: callbackQuery,
  success: {
    status: 302,
    mediaType: 'text/plain',
    schema: z.string(),
    description: {
      en: 'The app page to continue on: `/settings/mailboxes` (`mail`) or `/settings/connections` (other capabilities), with `?connected=<provider>` or `?error=<code>` (`oauth.state_invalid`, `oauth.access_denied`, `oauth.scope_missing`, `oauth.exchange_failed`, `oauth.app_not_configured`, `oauth.unsupported_provider`, `request.bad_request`).',
      fr: 'La page de l’application où continuer : `/settings/mailboxes` (`mail`) ou `/settings/connections` (autres capacités), avec `?connected=<fournisseur>` ou `?error=<code>` (`oauth.state_invalid`, `oauth.access_denied`, `oauth.scope_missing`, `oauth.exchange_failed`, `oauth.app_not_configured`, `oauth.unsupported_provider`, `request.bad_request`).',
    },
  },
  tag: 'OAuth',
  summary: { en: 'Finish connecting an account (provider callback)', fr: 'Terminer la connexion d’un compte (rappel du fournisseur)' },
  description: {
    en: 'The `redirectUri` registered at the provider; the browser arrives here with `code` and `state` (or `error`). Requires the session of the member who started the flow and the flow’s `state` (single use, 10 minutes). Exchanges the code with the PKCE verifier, stores the tokens encrypted in the member’s grant for the account (capabilities merged on a later consent) and, for `mail`, creates or reconnects the mailbox and queues its sync.',
    fr: 'Le `redirectUri` déclaré chez le fournisseur ; le navigateur y arrive avec `code` et `state` (ou `error`). Exige la session du membre qui a commencé le parcours et le `state` de ce parcours (usage unique, 10 minutes). Échange le code avec le vérificateur PKCE, enregistre les jetons chiffrés dans l’autorisation du membre pour ce compte (capacités fusionnées lors d’un consentement ultérieur) et, pour `mail`, crée ou reconnecte la boîte et programme sa synchronisation.',
  },
  async handle({ actor, params, query, origin }) {
    if (actor.kind === 'anonymous') throw appError('auth.unauthenticated');
    const outcome = await completeOAuthFlow(actor, params.provider, query, origin.ip);
    // The page URL carries no secret, but the callback's own URL held the code: no Referer from here.
    return new Response(null, { status: 302, headers: { location: outcome.location, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' } });
  },
});
