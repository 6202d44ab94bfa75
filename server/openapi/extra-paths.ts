/**
 * The one route neither a procedure nor a plain route can describe: the WebSocket channel (served by
 * socket.io on the upgrade). Declared by hand so the document lists it, with the same `x-access`
 * extension as the generated operations. Every other route is generated from its declaration.
 */
import type { Access } from '../core/auth/access';
import type { Localised } from '../trpc/meta';

export interface ExtraPath {
  method: 'get' | 'post';
  path: string;
  tag: string;
  summary: Localised;
  description: Localised;
  access: Access;
  responses: Record<string, { en: string; fr: string; schema?: Record<string, unknown>; mediaType?: string }>;
  parameters?: Record<string, unknown>[];
}

export const extraPaths: ExtraPath[] = [
  {
    method: 'get',
    path: '/api/v1/ws',
    tag: 'Instance',
    access: { kind: 'session' },
    summary: { en: 'Real-time channel (WebSocket)', fr: 'Canal temps réel (WebSocket)' },
    description: {
      en: 'socket.io endpoint for live updates of the interface. Member session only: an API key gets 403 `api_key.session_required`, no credential 401 `auth.unauthenticated`.',
      fr: 'Point d’accès socket.io des mises à jour en direct de l’interface. Session de membre uniquement : une clé d’API reçoit 403 `api_key.session_required`, l’absence d’identifiant 401 `auth.unauthenticated`.',
    },
    responses: {
      '101': { en: 'Switching to WebSocket.', fr: 'Passage en WebSocket.' },
      '401': { en: 'No session.', fr: 'Pas de session.' },
      '403': { en: 'API keys are refused.', fr: 'Les clés d’API sont refusées.' },
    },
  },
];
