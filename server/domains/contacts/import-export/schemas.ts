/**
 * Schemas of the address book's import (JSON bodies carrying the file as text) and export (the
 * download's query). The file's bounds are checked by the service so that they answer 413 / 400 with
 * the figure (import.ts).
 */
import { z } from 'zod';

const format = z.enum(['vcard', 'csv']).describe('`vcard` (4.0 or 3.0) or `csv` (a header line: `value`, optionally `kind`, and the layer’s fields).');
const layer = z.enum(['member', 'shared']).default('member').describe('`member` (your own cards; default) or `shared` (administrators).');
const mailboxId = z.string().min(1).max(100).optional().describe('With the member layer: your cards for this mailbox of yours.');

export const previewContactsImportInput = z.strictObject({
  format,
  layer,
  mailboxId,
  file: z.string().min(1).describe('The whole file as text (UTF-8). At most 2 MiB (413) and 5,000 entries (400).'),
});

export const importContactsInput = previewContactsImportInput.extend({
  skipInvalid: z.boolean().default(false).describe('Write the valid lines and leave out the error lines (without it, one error line refuses the import).'),
});

const problem = z.object({
  column: z.string().nullable().describe('The CSV column or the vCard property, null for the line as a whole.'),
  reason: z.string(),
  message: z.string().describe('A sentence naming the field, the value and why it does not fit.'),
  value: z.string().max(40).optional().describe('The value refused, at most 40 characters.'),
});

const action = z.enum(['create', 'update', 'unchanged', 'error']);
const field = z.string().nullable();

export const previewContactsImportOutput = z.object({
  format: z.enum(['vcard', 'csv']),
  layer: z.enum(['member', 'shared']),
  mailboxId: z.uuid().nullable(),
  counts: z.object({ create: z.number().int(), update: z.number().int(), unchanged: z.number().int(), error: z.number().int() }),
  lines: z
    .array(
      z
        .object({
          line: z.number().int().describe('The CSV line (1 is the header) or the line of the vCard’s BEGIN:VCARD; a card with several EMAILs gives several lines of one number.'),
          kind: z.enum(['contact', 'domain']).nullable(),
          value: z.string().nullable(),
          action,
          fields: z
            .object({
              displayName: field.optional(),
              language: field.optional(),
              status: field.optional(),
              orgNotes: field.optional(),
              formality: field.optional(),
              tone: field.optional(),
              personalNotes: field.optional(),
            })
            .describe('The fields the line sets (null clears one); a field absent from the file is left as the card has it.'),
          problems: z.array(problem),
        })
        .meta({ id: 'ContactImportLine' }),
    )
    .describe('Every line of the file, in file order (at most 5,000).'),
});

export const importContactsOutput = z.object({
  created: z.number().int().min(0),
  updated: z.number().int().min(0),
  unchanged: z.number().int().min(0),
  rejectedCount: z.number().int().min(0).describe('Error lines left out (with skipInvalid).'),
  rejected: z.array(z.object({ line: z.number().int(), problems: z.array(problem) })).describe('At most 100 lines; rejectedCount has them all.'),
});

/** The download's query parameters; unknown ones are a 400. */
export const contactsExportQuery = z.strictObject({
  layer,
  mailboxId,
  raw: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true')
    .describe('CSV only: by default a field starting with `=`, `+`, `-`, `@`, a tab or a carriage return is prefixed with `\'` (formula injection); `raw=true` exports the stored text unchanged.'),
});
