/**
 * The web fonts a site's `styling.font` (the public `CustomizationDefaultFont` list, `text`) and
 * `styling.monospaceFont` (`CustomizationDefaultMonospaceFont`, `code`) can name, from @fontsource
 * packages (SIL Open Font License / Ubuntu Font Licence): latin subset, regular and
 * bold, woff2. Read at run time by fonts.ts, and copied flat into the reader's Lambda bundle
 * (infra/constructs/service-function.ts, `READER_FONT_DIR`). ABCFavorit is proprietary: not
 * bundled, its sites use the system font stack. No imports: the CDK app reads this list too.
 */
export interface WebFont {
  /** The CSS family name the page uses. */
  family: string;
  /** Which setting may name it: `styling.font` (text) or `styling.monospaceFont` (code). */
  kind: 'text' | 'code';
  /** Package and its file of each weight. */
  files: { weight: 400 | 500 | 700; pkg: string; file: string }[];
}

const fontsource = (family: string, slug: string, kind: WebFont['kind'] = 'text', weights: readonly WebFont['files'][number]['weight'][] = [400, 700]): WebFont => ({
  family,
  kind,
  files: weights.map((weight) => ({ weight, pkg: `@fontsource/${slug}`, file: `files/${slug}-latin-${weight}-normal.woff2` })),
});

export const WEB_FONTS: Record<string, WebFont> = {
  Inter: fontsource('Inter', 'inter'),
  Roboto: fontsource('Roboto', 'roboto'),
  RobotoSlab: fontsource('Roboto Slab', 'roboto-slab'),
  OpenSans: fontsource('Open Sans', 'open-sans'),
  SourceSansPro: fontsource('Source Sans Pro', 'source-sans-pro'),
  Lato: fontsource('Lato', 'lato'),
  Ubuntu: fontsource('Ubuntu', 'ubuntu'),
  Raleway: fontsource('Raleway', 'raleway'),
  Merriweather: fontsource('Merriweather', 'merriweather'),
  Overpass: fontsource('Overpass', 'overpass'),
  NotoSans: fontsource('Noto Sans', 'noto-sans'),
  IBMPlexSerif: fontsource('IBM Plex Serif', 'ibm-plex-serif'),
  Poppins: fontsource('Poppins', 'poppins'),
  FiraSans: fontsource('Fira Sans', 'fira-sans'),
  // Code fonts.
  FiraCode: fontsource('Fira Code', 'fira-code', 'code'),
  IBMPlexMono: fontsource('IBM Plex Mono', 'ibm-plex-mono', 'code'),
  JetBrainsMono: fontsource('JetBrains Mono', 'jetbrains-mono', 'code'),
  SourceCodePro: fontsource('Source Code Pro', 'source-code-pro', 'code'),
  RobotoMono: fontsource('Roboto Mono', 'roboto-mono', 'code'),
  SpaceMono: fontsource('Space Mono', 'space-mono', 'code'),
  // DM Mono has no bold (its weights are 300, 400 and 500): its 500 is the heaviest it has,
  // and bold code (700) matches that face by CSS font matching.
  DMMono: fontsource('DM Mono', 'dm-mono', 'code', [400, 500]),
  Inconsolata: fontsource('Inconsolata', 'inconsolata', 'code'),
};
