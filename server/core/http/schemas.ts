/** Small zod pieces shared by route schemas. */
import { z } from 'zod';

export const isoDateTime = z.iso.datetime();

/**
 * An ISO 8601 UTC date-time sent by a client (a `since` filter, a cursor). The format alone admits
 * year 0000, which PostgreSQL refuses (there is no year 0): such a value is a 400, not a failed query.
 */
export const isoDateTimeInput = z.iso.datetime().refine((value) => !value.startsWith('0000'), { message: 'The year must be 0001 or later.' });

export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

export const uuidParam = z.object({ id: z.uuid() });

export const emailInput = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email())
  .transform((value) => value.toLowerCase());

