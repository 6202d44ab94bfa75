/** The instance's brand for server components (same data as the public `instance.branding` route). */
import type { Branding } from '@/server/domains/instance/schemas';
import { currentBranding } from '@/server/domains/instance/service';

export type { Branding };

export function getBranding(): Branding {
  return currentBranding();
}
