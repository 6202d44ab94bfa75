/**
 * The instance's brand for server components (same data as the public `instance.branding` route): the operator's
 * when the instance is linked and the sync kept one, the environment's otherwise. Read from the database copy,
 * never from the operator, so a slow operator never holds the sign-in page.
 */
import type { Branding } from '@/server/domains/instance/schemas';
import { brandingAnswer } from '@/server/domains/instance/service';

export type { Branding };

export async function getBranding(): Promise<Branding> {
  return brandingAnswer();
}
