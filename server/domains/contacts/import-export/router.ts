/**
 * The address book's import routes (vCard, CSV), nested in the contacts router as `contacts.import`: a preview,
 * then the import itself (import.ts). The export is a download: server/http/contacts-export-route.ts.
 */
import { route } from '../../../trpc/meta';
import { actorOf, procedure, router } from '../../../trpc/procedures';
import { importExportDocs } from './docs';
import { importContacts, previewContactsImport } from './import';
import * as ie from './schemas';

const tag = 'Contacts';
const write = { kind: 'scope', scope: 'contacts:write' } as const;
const mailboxMissing = 'contacts.mailbox_not_found' as const;

export const importRouter = router({
  preview: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/contacts/import/preview',
        access: write,
        errors: ['auth.forbidden', mailboxMissing],
        tag,
        ...importExportDocs.preview,
      }),
    )
    .input(ie.previewContactsImportInput)
    .output(ie.previewContactsImportOutput)
    .mutation(({ ctx, input }) => previewContactsImport(actorOf(ctx), input)),

  commit: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/contacts/import',
        access: write,
        errors: ['auth.forbidden', mailboxMissing, 'contacts.import_rejected'],
        tag,
        ...importExportDocs.import,
      }),
    )
    .input(ie.importContactsInput)
    .output(ie.importContactsOutput)
    .mutation(({ ctx, input }) => importContacts(actorOf(ctx), input, ctx.ip)),
});

