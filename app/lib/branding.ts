/** The instance's brand for server components (same data as the public `instance.branding` route). */
import { currentBranding } from '@/server/domains/instance/router';

export type Branding = ReturnType<typeof currentBranding>;

export function getBranding(): Branding {
  return currentBranding();
}
