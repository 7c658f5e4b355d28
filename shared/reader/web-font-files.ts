/**
 * The web fonts a site's `styling.font` can name (the public `CustomizationDefaultFont` list),
 * from @fontsource packages (SIL Open Font License / Ubuntu Font Licence): latin subset,
 * regular and bold, woff2. Read at run time by fonts.ts, and copied flat into the reader's
 * Lambda bundle (infra/constructs/service-function.ts, `READER_FONT_DIR`). ABCFavorit is
 * proprietary: not bundled, its sites use the system font stack. No imports: the CDK app
 * reads this list too.
 */
export interface WebFont {
  /** The CSS family name the page uses. */
  family: string;
  /** Package and its file of each weight. */
  files: { weight: 400 | 700; pkg: string; file: string }[];
}

const fontsource = (family: string, slug: string): WebFont => ({
  family,
  files: ([400, 700] as const).map((weight) => ({ weight, pkg: `@fontsource/${slug}`, file: `files/${slug}-latin-${weight}-normal.woff2` })),
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
};
