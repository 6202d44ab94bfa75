/**
 * GET /api/v1/contacts/export.vcf and GET /api/v1/contacts/export.csv — the address book's export, a download, so
 * plain routes rather than JSON procedures (as the tables' export); one path per format, so each declares the one
 * media type it answers. The query, prose and stream are the contacts domain's (import-export/); the mailbox is
 * checked before the first byte, so a wrong one is a proper 404, never a truncated 200.
 */
import { z } from 'zod';
import { appError } from '../core/errors/app-error';
import { contactsExportQuery, importExportDocs, openContactsExport } from '../domains/contacts';
import { plainRoute } from './plain/plain-route';
import { streamedDownload } from './plain/responses';

function contactsExportRoute(format: 'vcard' | 'csv') {
  const docs = importExportDocs.export[format];
  return plainRoute({
    method: 'GET',
    path: format === 'csv' ? '/api/v1/contacts/export.csv' : '/api/v1/contacts/export.vcf',
    access: { kind: 'scope', scope: 'contacts:read' },
    params: z.object({}),
    query: contactsExportQuery,
    success: { status: 200, mediaType: format === 'csv' ? 'text/csv' : 'text/vcard', schema: z.string(), description: docs.success },
    errors: ['contacts.mailbox_not_found'],
    tag: 'Contacts',
    summary: docs.summary,
    description: docs.description,
    async handle({ actor, query }) {
      if (actor.kind === 'anonymous') throw appError('auth.unauthenticated');
      const { chunks, fileName, contentType } = await openContactsExport(actor, { ...query, format });
      return streamedDownload(chunks, { 'content-type': contentType, 'content-disposition': `attachment; filename="${fileName}"` });
    },
  });
}

export const contactsVcardExportRoute = contactsExportRoute('vcard');
export const contactsCsvExportRoute = contactsExportRoute('csv');
