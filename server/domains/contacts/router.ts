import { z } from 'zod';
import { route } from '../../trpc/meta';
import { actorOf, procedure, router } from '../../trpc/procedures';
import { deleteContact, putContact } from './cards';
import { getDefaults, putMailboxDefaults, putMemberDefaults, putOrgDefaults } from './defaults';
import { docs } from './docs';
import { importRouter } from './import-export/router';
import { listContacts } from './list';
import { resolveContact } from './resolution';
import * as s from './schemas';
import { createSignature, editSignature, listMemberSignatures, removeSignature } from './signatures';

const tag = 'Contacts';
const read = { kind: 'scope', scope: 'contacts:read' } as const;
const write = { kind: 'scope', scope: 'contacts:write' } as const;
const adminWrite = { kind: 'scope', scope: 'contacts:write', admin: true } as const;
const mailboxMissing = 'contacts.mailbox_not_found' as const;
const signatureMissing = 'contacts.signature_not_found' as const;

const defaultsRouter = router({
  get: procedure
    .meta(route({ method: 'GET', path: '/api/v1/contacts/defaults', access: read, errors: [mailboxMissing], tag, ...docs.defaults.get }))
    .input(s.defaultsQuery)
    .output(s.defaultsOutput)
    .query(({ ctx, input }) => getDefaults(actorOf(ctx), input)),

  organisation: procedure
    .meta(route({ method: 'PUT', path: '/api/v1/contacts/defaults/organisation', access: adminWrite, tag, ...docs.defaults.organisation }))
    .input(s.putOrgDefaultsInput)
    .output(s.orgDefaultsOutput)
    .mutation(({ ctx, input }) => putOrgDefaults(actorOf(ctx), input, ctx.ip)),

  member: procedure
    .meta(route({ method: 'PUT', path: '/api/v1/contacts/defaults/member', access: write, errors: [signatureMissing], tag, ...docs.defaults.member }))
    .input(s.putMemberDefaultsInput)
    .output(s.memberDefaultsOutput)
    .mutation(({ ctx, input }) => putMemberDefaults(actorOf(ctx), input)),

  mailbox: procedure
    .meta(
      route({
        method: 'PUT',
        path: '/api/v1/contacts/defaults/mailboxes/{mailboxId}',
        access: write,
        errors: [mailboxMissing, signatureMissing],
        tag,
        ...docs.defaults.mailbox,
      }),
    )
    .input(s.putMailboxDefaultsInput)
    .output(s.mailboxDefaultsOutput)
    .mutation(({ ctx, input }) => putMailboxDefaults(actorOf(ctx), input)),
});

const signaturesRouter = router({
  list: procedure
    .meta(route({ method: 'GET', path: '/api/v1/contacts/signatures', access: read, tag, ...docs.signatures.list }))
    .output(s.signatureListOutput)
    .query(({ ctx }) => listMemberSignatures(actorOf(ctx))),

  create: procedure
    .meta(
      route({
        method: 'POST',
        path: '/api/v1/contacts/signatures',
        access: write,
        status: 201,
        errors: ['contacts.signature_limit_reached'],
        tag,
        ...docs.signatures.create,
      }),
    )
    .input(s.createSignatureInput)
    .output(s.signatureOutput)
    .mutation(({ ctx, input }) => createSignature(actorOf(ctx), input)),

  update: procedure
    .meta(route({ method: 'PATCH', path: '/api/v1/contacts/signatures/{id}', access: write, errors: [signatureMissing], tag, ...docs.signatures.update }))
    .input(s.updateSignatureInput)
    .output(s.signatureOutput)
    .mutation(({ ctx, input }) => editSignature(actorOf(ctx), input)),

  delete: procedure
    .meta(
      route({
        method: 'DELETE',
        path: '/api/v1/contacts/signatures/{id}',
        access: write,
        status: 204,
        errors: [signatureMissing],
        tag,
        ...docs.signatures.delete,
      }),
    )
    .input(s.signatureIdParam)
    .output(z.void())
    .mutation(({ ctx, input }) => removeSignature(actorOf(ctx), input.id)),
});

export const contactsRouter = router({
  list: procedure
    .meta(route({ method: 'GET', path: '/api/v1/contacts', access: read, errors: [mailboxMissing], tag, ...docs.list }))
    .input(s.listContactsInput)
    .output(s.contactListOutput)
    .query(({ ctx, input }) => listContacts(actorOf(ctx), input)),

  put: procedure
    .meta(
      route({
        method: 'PUT',
        path: '/api/v1/contacts',
        access: write,
        errors: ['auth.forbidden', mailboxMissing, signatureMissing],
        tag,
        ...docs.put,
      }),
    )
    .input(s.putContactInput)
    .output(s.contactEntryOutput)
    .mutation(({ ctx, input }) => putContact(actorOf(ctx), input, ctx.ip)),

  delete: procedure
    .meta(route({ method: 'DELETE', path: '/api/v1/contacts', access: write, status: 204, errors: ['auth.forbidden', mailboxMissing], tag, ...docs.delete }))
    .input(s.deleteContactInput)
    .output(z.void())
    .mutation(({ ctx, input }) => deleteContact(actorOf(ctx), input, ctx.ip)),

  resolve: procedure
    .meta(route({ method: 'GET', path: '/api/v1/contacts/resolve', access: read, errors: [mailboxMissing], tag, ...docs.resolve }))
    .input(s.resolveContactInput)
    .output(s.resolutionOutput)
    .query(({ ctx, input }) => resolveContact({ memberId: actorOf(ctx).member.id, mailboxId: input.mailboxId, address: input.address })),

  defaults: defaultsRouter,
  signatures: signaturesRouter,
  import: importRouter,
});
