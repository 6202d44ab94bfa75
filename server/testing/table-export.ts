/**
 * Downloads a table's CSV export in-process, the way a client does (GET /api/v1/tables/{id}/export.csv),
 * through the web server's API entry, for integration tests.
 */
import { handleApiRequest } from '../http/api-handler';
import { clientIpHeader } from '../core/http/client-headers';

export interface ExportRequestOptions {
  cookie?: string;
  key?: string;
  query?: Record<string, string>;
  signal?: AbortSignal;
}

export function requestTableExport(ref: string, options: ExportRequestOptions = {}): Promise<Response> {
  const headers = new Headers({ [clientIpHeader]: '127.0.0.1', host: 'localhost' });
  if (options.cookie) headers.set('cookie', options.cookie);
  if (options.key) headers.set('authorization', `Bearer ${options.key}`);
  const query = new URLSearchParams(options.query ?? {}).toString();
  const url = `http://localhost/api/v1/tables/${encodeURIComponent(ref)}/export.csv${query ? `?${query}` : ''}`;
  return handleApiRequest(new Request(url, { headers, signal: options.signal }));
}
