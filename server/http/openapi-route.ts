/** GET /api/v1/openapi.json?lang=en|fr */
import { AppError } from '../core/errors/app-error';
import { openApiDocument } from '../openapi/document';

export function handleOpenApiRequest(request: Request): Response {
  const lang = new URL(request.url).searchParams.get('lang') ?? 'en';
  if (lang !== 'en' && lang !== 'fr') {
    const error = new AppError('request.bad_request', { details: { issues: [{ path: 'lang', code: 'invalid_value', message: 'lang must be en or fr' }] } });
    return Response.json(error.toBody(), { status: 400 });
  }
  return Response.json(openApiDocument(lang));
}
