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

/** The page background of each mode (shared/reader/assets/style.ts `--bg`). */
const BACKGROUND = { light: '#ffffff', dark: '#0d1117' } as const;
/** WCAG AA for text: links in the site's colour must read at 4.5:1 on the page. */
const TEXT_CONTRAST = 4.5;

function rgbOf(hex: string): [number, number, number] | undefined {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex);
  if (!m) return undefined;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (v: number) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

function contrast(a: [number, number, number], b: [number, number, number]): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number];
  return (x + 0.05) / (y + 0.05);
}

/**
 * The colour links take in a mode: the site's primary colour itself when it reads on that
 * mode's background, else that colour mixed towards white (dark) or black (light) just enough
 * to reach 4.5:1 (a brand blue chosen for white pages is too dark on the dark page). Named
 * colours are kept as they are.
 */
export function linkColor(color: string, mode: 'light' | 'dark'): string {
  const rgb = rgbOf(color);
  if (!rgb) return color;
  const bg = rgbOf(BACKGROUND[mode])!;
  const toward = mode === 'dark' ? 255 : 0;
  for (let step = 0; step <= 20; step++) {
    const t = step / 20;
    const mixed = rgb.map((v) => Math.round(v + (toward - v) * t)) as [number, number, number];
    if (contrast(mixed, bg) >= TEXT_CONTRAST) return `#${mixed.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  }
  return mode === 'dark' ? '#ffffff' : '#000000';
}

export function themeStyle(c: Customization, font?: SiteFont, mono?: SiteFont): string {
  const s = c.styling;
  const vars = (mode: 'light' | 'dark') => [
    ...COLORS.map(([name, key]) => `--${name}:${safeColor(s[key][mode], FALLBACK[key])}`),
    `--link:${linkColor(safeColor(s.primaryColor[mode], FALLBACK.primaryColor), mode)}`,
  ].join(';');
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
