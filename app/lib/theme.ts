/**
 * The interface theme: `system` follows the browser's preference, `light` and `dark` force one. The
 * choice is a cookie (like the language), so the server renders the page in it without a flash; the
 * root element carries it as `data-theme` (absent for `system`), which globals.css and Tailwind's
 * `dark:` variant read.
 */
export const themes = ['system', 'light', 'dark'] as const;
export type Theme = (typeof themes)[number];

export const themeCookie = 'theme';

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (themes as readonly string[]).includes(value);
}

/** The `data-theme` attribute of the root element for a theme (none: follow the browser). */
export function themeAttribute(theme: Theme): 'light' | 'dark' | undefined {
  return theme === 'system' ? undefined : theme;
}
