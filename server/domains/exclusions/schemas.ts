import { z } from 'zod';
import { isoDateTime } from '../../core/http/schemas';

export const exclusionKinds = ['address', 'domain'] as const;

/** A domain name in ASCII (IDNs in their punycode form), at least two labels. */
const domainPattern = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/;
const addressCheck = z.email();

/** The stored form of a value: trimmed and lower-cased (a leading `@` of a domain dropped). */
export function normaliseExclusionValue(kind: (typeof exclusionKinds)[number], value: string): string {
  const lowered = value.trim().toLowerCase();
  return kind === 'domain' && lowered.startsWith('@') ? lowered.slice(1) : lowered;
}

export function isValidExclusionValue(kind: (typeof exclusionKinds)[number], value: string): boolean {
  const normalised = normaliseExclusionValue(kind, value);
  if (kind === 'domain') return domainPattern.test(normalised);
  return normalised.length <= 254 && addressCheck.safeParse(normalised).success;
}

export const exclusionSchema = z
  .object({
    id: z.uuid(),
    kind: z.enum(exclusionKinds),
    value: z.string().describe('Lower-case address, or domain (its subdomains are excluded too).'),
    note: z.string(),
    createdAt: isoDateTime,
  })
  .meta({ id: 'SenderExclusion' });

export const createExclusionInput = z
  .strictObject({
    kind: z.enum(exclusionKinds).describe('`address`: one sender; `domain`: every sender of the domain and its subdomains.'),
    value: z.string().min(1).max(254).describe('An email address, or a domain name (ASCII, punycode for international names); stored lower-case.'),
    note: z.string().trim().max(500).optional(),
  })
  .superRefine((input, context) => {
    if (!isValidExclusionValue(input.kind, input.value)) {
      context.addIssue({ code: 'custom', path: ['value'], message: input.kind === 'domain' ? 'A domain name such as example.com.' : 'An email address.' });
    }
  });

export type CreateExclusionInput = z.infer<typeof createExclusionInput>;

export const exclusionOutput = z.object({ exclusion: exclusionSchema });
export const exclusionListOutput = z.object({ exclusions: z.array(exclusionSchema) });
