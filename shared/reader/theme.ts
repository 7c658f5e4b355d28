import { safeColor } from './html.ts';
import type { Customization } from './layout.ts';
import type { SiteFont } from './fonts.ts';

/**
 * A site's customization as the page's one inline style (hashed in the CSP): its colours in
 * light and dark, corners and font, as the custom properties the reader's stylesheet uses.
 * A bundled font or a font definition (shared/reader/fonts.ts) brings its `@font-face` rules; a
 * font without files is named anyway (used when the reader's device has it), before the system
 * stack. The code font (`--mono`) the same way.
 */

const COLORS = [['primary', 'primaryColor'], ['info', 'infoColor'], ['success', 'successColor'], ['warning', 'warningColor'], ['danger', 'dangerColor']] as const;
const FALLBACK = { primaryColor: '#346DDB', infoColor: '#787878', successColor: '#02B341', warningColor: '#FE9A00', dangerColor: '#FB2C36' };
const RADIUS: Record<string, string> = { straight: '0', rounded: '6px', circular: '14px' };

/** `IBMPlexSerif` → `IBM Plex Serif`: the family name a locally installed font would have. */
function fontFamily(font: unknown): string | undefined {
  if (typeof font !== 'string' || !/^[A-Za-z0-9]{2,40}$/.test(font)) return undefined;
  return font.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
}

export function themeStyle(c: Customization, font?: SiteFont, mono?: SiteFont): string {
  const s = c.styling;
  const vars = (mode: 'light' | 'dark') => COLORS.map(([name, key]) => `--${name}:${safeColor(s[key][mode], FALLBACK[key])}`).join(';');
  const family = font?.family ?? fontFamily(s.font);
  const base = [
    vars('light'), `--radius:${RADIUS[s.corners] ?? RADIUS.rounded}`,
    ...(family ? [`--font:"${family}",system-ui,-apple-system,"Segoe UI",Roboto,sans-serif`] : []),
    ...(mono ? [`--mono:"${mono.family}",ui-monospace,SFMono-Regular,Menlo,Consolas,monospace`] : []),
  ].join(';');
  const dark = vars('dark');
  return `:root{${base}}:root[data-theme=dark]{${dark}}@media (prefers-color-scheme:dark){:root:not([data-theme=light]){${dark}}}${font?.css ?? ''}${mono?.css ?? ''}`;
}

/** The `data-theme` a page starts with: the site's default unless it follows the system. */
export function initialTheme(c: Customization): 'light' | 'dark' | undefined {
  const mode = (c.themes as { default: string }).default;
  return mode === 'light' || mode === 'dark' ? mode : undefined;
}
