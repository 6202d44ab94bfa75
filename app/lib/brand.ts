/** Pure helpers for the instance's brand colours. */

const hex = /^#[0-9a-f]{6}$/i;

/** Relative luminance (WCAG) of a #RRGGBB colour. */
function luminance(color: string): number {
  const channels = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** Text colour readable on `background`: the configured one when given, else white or near-black. */
export function readableOn(background: string, configured: string | null): string {
  if (configured && hex.test(configured)) return configured;
  return luminance(background) > 0.45 ? '#111113' : '#ffffff';
}

/** CSS custom properties for the brand accent, or none to keep the stylesheet's default. */
export function brandStyle(primary: string | null, onPrimary: string | null): Record<string, string> {
  if (!primary || !hex.test(primary)) return {};
  return { '--brand': primary, '--on-brand': readableOn(primary, onPrimary) };
}
