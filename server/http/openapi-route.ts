/**
 * GET /api/v1/openapi.json?lang=en|fr — this service's own description, as a plain route. The document
 * is handed in (`plain/routes.ts` builds it from the list this route belongs to).
 */
import { z } from 'zod';
import { plainRoute } from './plain/plain-route';
import { jsonAnswer } from './json-answer';

export const openApiRoute = (openApiDocument: (lang: 'en' | 'fr') => unknown) =>
  plainRoute({
    method: 'GET',
    path: '/api/v1/openapi.json',
    access: { kind: 'public' },
    params: z.object({}),
    query: z.object({ lang: z.enum(['en', 'fr']).default('en').describe('Language of the texts.') }).strict(),
    success: {
      status: 200,
      mediaType: 'application/json',
      schema: z.object({}).catchall(z.unknown()),
      description: { en: 'The OpenAPI document.', fr: 'Le document OpenAPI.' },
    },
    tag: 'Instance',
    summary: { en: 'This description', fr: 'Cette description' },
    description: {
      en: 'The OpenAPI 3.1 description generated from the route schemas, in English or French (`lang`).',
      fr: 'La description OpenAPI 3.1 générée à partir des schémas des routes, en anglais ou en français (`lang`).',
    },
    handle: ({ query }) => jsonAnswer(openApiDocument(query.lang), 200),
  });
