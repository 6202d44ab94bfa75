/** Small zod pieces shared by route schemas. */
import { z } from 'zod';

export const isoDateTime = z.iso.datetime();

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
