/**
 * The address book's zod schemas: the single source of validation, types and the OpenAPI document.
 * Browser-safe (the Contacts page will use them). Bounds (ours, the spec gives `value` only):
 * `value` 1-320, `displayName` ≤ 200, `language` a BCP 47 tag ≤ 35, notes (`orgNotes`, `personalNotes`,
 * the defaults' `notes`) ≤ 2,000, a signature's `name` ≤ 100, `text` ≤ 10,000, `html` ≤ 100,000 before
 * sanitising.
 */
import { z } from 'zod';
import { limitParam } from '../../core/http/cursor';
import { isoDateTime } from '../../core/http/schemas';
import { contactKinds, maxValueLength, normaliseValue } from './normalise';
import { contactLayers, contactStatuses, formalities, tones } from './resolve';

export { contactKinds } from './normalise';
export { contactLayers, contactStatuses, formalities, tones } from './resolve';

export const contactBounds = { displayName: 200, language: 35, notes: 2_000, signatureName: 100, signatureText: 10_000, signatureHtml: 100_000, q: 200 } as const;

const kind = z.enum(contactKinds).describe('`contact`: one address; `domain`: every address of the domain and of its subdomains.');
const value = z
  .string()
  .min(1)
  .max(maxValueLength)
  .describe('The address or the domain; stored lower-case, international domain names in punycode (`xn--…`).');
/** A mailbox id as a client sends it: anything not the member's own mailbox is `contacts.mailbox_not_found`. */
const mailboxRef = z.string().min(1).max(100).describe('A mailbox of yours (its id).');
const language = z
  .string()
  .max(contactBounds.language)
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/, 'A language tag such as fr or en-GB.')
  .describe('A BCP 47 language tag (`fr`, `en-GB`); stored in its canonical case.');
const notes = z.string().max(contactBounds.notes);

export const contactLayerSchema = z.enum(contactLayers);

/** Value and kind must form a valid address or domain. */
function refineValue(input: { kind: (typeof contactKinds)[number]; value: string }, context: z.RefinementCtx) {
  if (normaliseValue(input.kind, input.value) === null) {
    context.addIssue({ code: 'custom', path: ['value'], message: input.kind === 'domain' ? 'A domain name such as example.com.' : 'An email address.' });
  }
}

// ---------------------------------------------------------------------------------------------------
// Answers

const sharedCard = z.object({
  id: z.uuid(),
  displayName: z.string().nullable(),
  language: z.string().nullable(),
  status: z.enum(contactStatuses).nullable(),
  orgNotes: z.string().nullable(),
  updatedAt: isoDateTime,
});
const memberFields = {
  id: z.uuid(),
  formality: z.enum(formalities).nullable(),
  tone: z.enum(tones).nullable(),
  language: z.string().nullable(),
  signatureId: z.uuid().nullable(),
  personalNotes: z.string().nullable(),
  updatedAt: isoDateTime,
};
const memberCard = z.object(memberFields);
const mailboxCard = z.object({ ...memberFields, mailboxId: z.uuid() });
const layerOrNull = contactLayerSchema.nullable();

export const resolvedSchema = z.object({
  formality: z.enum(formalities).nullable(),
  tone: z.enum(tones).nullable(),
  language: z.string().nullable(),
  displayName: z.string().nullable(),
  signatureText: z.string().nullable(),
  signatureId: z.uuid().nullable(),
  status: z.enum(contactStatuses).nullable(),
  notes: z.array(z.string()),
});
export const sourcesSchema = z.object({
  formality: layerOrNull,
  tone: layerOrNull,
  language: layerOrNull,
  displayName: layerOrNull,
  signatureText: layerOrNull,
  status: layerOrNull,
  notes: z.array(contactLayerSchema),
});

export const contactEntrySchema = z
  .object({
    kind: z.enum(contactKinds),
    value: z.string(),
    shared: sharedCard.nullable(),
    member: memberCard.nullable(),
    memberByMailbox: z.array(mailboxCard),
    resolved: resolvedSchema,
    sources: sourcesSchema,
  })
  .meta({ id: 'ContactEntry' });

export const contactListOutput = z.object({ items: z.array(contactEntrySchema), nextCursor: z.string().nullable() });
export const contactEntryOutput = contactEntrySchema;
export const resolutionOutput = z
  .object({ address: z.string(), resolved: resolvedSchema, sources: sourcesSchema })
  .meta({ id: 'ContactResolution' });

// ---------------------------------------------------------------------------------------------------
// The list, the card writes, the resolution

export const listContactsInput = z.object({
  kind: kind.optional(),
  q: z.string().min(1).max(contactBounds.q).optional().describe('Part of the address or domain, the shared display name or notes, or your own notes (case-blind).'),
  layer: z.enum(['all', 'shared', 'member']).default('all').describe('Entries with a card in this layer (`member`: your own cards).'),
  mailboxId: mailboxRef.optional().describe('Read from this mailbox’s point of view (a mailbox of yours).'),
  cursor: z.string().max(500).optional(),
  limit: limitParam(50, 200),
});
export type ListContactsInput = z.infer<typeof listContactsInput>;

export const deleteContactInput = z
  .object({
    kind,
    value,
    layer: z.enum(['member', 'shared']).default('member'),
    mailboxId: mailboxRef.optional().describe('With the member layer: delete this mailbox’s card only.'),
  })
  .superRefine((input, context) => {
    refineValue(input, context);
    if (input.layer === 'shared' && input.mailboxId !== undefined) context.addIssue({ code: 'custom', path: ['mailboxId'], message: 'The shared layer has no mailbox cards.' });
  });
export type DeleteContactInput = z.infer<typeof deleteContactInput>;

const sharedFieldNames = ['displayName', 'status', 'orgNotes'] as const;
const memberFieldNames = ['formality', 'tone', 'signatureId', 'personalNotes'] as const;

export const putContactInput = z
  .strictObject({
    kind,
    value,
    layer: z.enum(['member', 'shared']).default('member').describe('`shared` (administrators) or `member` (your own card).'),
    mailboxId: mailboxRef.optional().describe('With the member layer: the card for this mailbox of yours.'),
    displayName: z.string().max(contactBounds.displayName).nullable().optional().describe('Shared layer.'),
    language: language.nullable().optional(),
    status: z.enum(contactStatuses).nullable().optional().describe('Shared layer.'),
    orgNotes: notes.nullable().optional().describe('Shared layer.'),
    formality: z.enum(formalities).nullable().optional().describe('Member layer.'),
    tone: z.enum(tones).nullable().optional().describe('Member layer.'),
    signatureId: z.string().max(100).nullable().optional().describe('Member layer: one of your signatures.'),
    personalNotes: notes.nullable().optional().describe('Member layer.'),
  })
  .superRefine((input, context) => {
    refineValue(input, context);
    const foreign = input.layer === 'shared' ? memberFieldNames : sharedFieldNames;
    for (const field of foreign) {
      if (input[field] !== undefined) context.addIssue({ code: 'custom', path: [field], message: `Not a field of the ${input.layer} layer.` });
    }
    if (input.layer === 'shared' && input.mailboxId !== undefined) context.addIssue({ code: 'custom', path: ['mailboxId'], message: 'The shared layer has no mailbox cards.' });
  });
export type PutContactInput = z.infer<typeof putContactInput>;

export const resolveContactInput = z.object({
  address: z.string().min(1).max(maxValueLength).describe('An email address.'),
  mailboxId: mailboxRef.optional(),
});

// ---------------------------------------------------------------------------------------------------
// Defaults

const defaultsCommon = {
  formality: z.enum(formalities).nullable(),
  tone: z.enum(tones).nullable(),
  language: z.string().nullable(),
  notes: z.string().nullable(),
  updatedAt: isoDateTime.nullable().describe('Null while never set.'),
};
export const orgDefaultsSchema = z.object(defaultsCommon).meta({ id: 'ContactOrgDefaults' });
export const memberDefaultsSchema = z.object({ ...defaultsCommon, signatureId: z.uuid().nullable() }).meta({ id: 'ContactMemberDefaults' });
export const mailboxDefaultsSchema = z
  .object({ ...defaultsCommon, signatureId: z.uuid().nullable().describe('The mailbox’s default signature.'), mailboxId: z.uuid() })
  .meta({ id: 'ContactMailboxDefaults' });

export const defaultsQuery = z.object({ mailboxId: mailboxRef.optional() });
export const defaultsOutput = z.object({ organisation: orgDefaultsSchema, member: memberDefaultsSchema, mailbox: mailboxDefaultsSchema.nullable() });

const defaultsWrite = {
  formality: z.enum(formalities).nullable().optional(),
  tone: z.enum(tones).nullable().optional(),
  language: language.nullable().optional(),
  notes: notes.nullable().optional(),
};
export const putOrgDefaultsInput = z.strictObject(defaultsWrite);
export const putMemberDefaultsInput = z.strictObject({ ...defaultsWrite, signatureId: z.string().max(100).nullable().optional() });
export const putMailboxDefaultsInput = z.strictObject({ ...defaultsWrite, signatureId: z.string().max(100).nullable().optional(), mailboxId: mailboxRef });
export type PutOrgDefaultsInput = z.infer<typeof putOrgDefaultsInput>;
export type PutMemberDefaultsInput = z.infer<typeof putMemberDefaultsInput>;
export type PutMailboxDefaultsInput = z.infer<typeof putMailboxDefaultsInput>;

export const orgDefaultsOutput = z.object({ organisation: orgDefaultsSchema });
export const memberDefaultsOutput = z.object({ member: memberDefaultsSchema });
export const mailboxDefaultsOutput = z.object({ mailbox: mailboxDefaultsSchema });

// ---------------------------------------------------------------------------------------------------
// Signatures

export const signatureSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    text: z.string(),
    html: z.string().nullable().describe('Sanitised when saved (scripts, forms, event handlers and unsafe links removed).'),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: 'ContactSignature' });

export const createSignatureInput = z.strictObject({
  name: z.string().trim().min(1).max(contactBounds.signatureName),
  text: z.string().max(contactBounds.signatureText).describe('The plain-text signature (appended to plain-text bodies).'),
  html: z.string().max(contactBounds.signatureHtml).nullable().optional().describe('Optional HTML form; sanitised when saved.'),
});
export const signatureIdParam = z.object({ id: z.string().min(1).max(100) });
export const updateSignatureInput = z.strictObject({
  id: z.string().min(1).max(100),
  name: z.string().trim().min(1).max(contactBounds.signatureName).optional(),
  text: z.string().max(contactBounds.signatureText).optional(),
  html: z.string().max(contactBounds.signatureHtml).nullable().optional(),
});
export type CreateSignatureInput = z.infer<typeof createSignatureInput>;
export type UpdateSignatureInput = z.infer<typeof updateSignatureInput>;

export const signatureOutput = z.object({ signature: signatureSchema });
export const signatureListOutput = z.object({ signatures: z.array(signatureSchema) });
