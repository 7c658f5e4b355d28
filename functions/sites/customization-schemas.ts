import * as v from 'valibot';
import { pageActionTypes } from '../../shared/presenters/schemas/site-customization.ts';
import { FONT_FAMILY, FONT_FORMATS } from '../../shared/reader/font-definitions.ts';
import { conditionExpression } from '../../shared/http/schemas.ts';
import { maxChars, minChars } from '../../shared/http/string-length.ts';

/**
 * Bodies of the customization operations, in the public interface's shapes
 * (`SiteCustomizationSettingsInput` for a site's PUT; the site space's PATCH overrides any
 * of the same fields, null resetting one to the site's value). Every value the reader puts
 * into a page is checked here: colours are hex, links, images and font files http(s) URLs,
 * fonts from the public lists or font definitions, styles from the public lists. `pdf` and `git` (spec 2.12, not in the public input) are
 * accepted too; other unknown fields are dropped.
 */

const str = (max: number) => v.pipe(v.string('must be a string'), v.maxLength(max, `must be at most ${max} characters`));
/** Text a reader sees (titles, messages), counted in characters (shared/http/string-length.ts). */
const text = (max: number) => v.pipe(v.string('must be a string'), maxChars(max));
const oneOf = <const T extends readonly string[]>(values: T) => v.picklist(values, `must be one of ${values.join(', ')}`);
const bool = v.boolean('must be true or false');
const color = v.pipe(v.string('must be a string'), v.regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'must be a hex colour such as #346DDB'));
const themedColor = v.object({ light: color, dark: color });
const url = v.pipe(
  v.string('must be a string'), v.maxLength(2048, 'must be at most 2048 characters'),
  v.check((s) => URL.canParse(s) && /^https?:$/.test(new URL(s).protocol), 'must be an http or https URL'),
);
const themedUrl = v.object({ light: url, dark: url });
/** Content references a link may point at: a URL, or a page (and anchor) of the site space. */
const contentRef = v.variant('kind', [
  v.object({ kind: v.literal('url'), url }),
  v.object({ kind: v.literal('page'), page: str(100), space: v.optional(str(100)) }),
  v.object({ kind: v.literal('anchor'), page: str(100), anchor: str(200), space: v.optional(str(100)) }),
], 'must be a content reference of kind url, page or anchor');
const link = v.object({ title: v.pipe(text(128), v.minLength(1, 'must not be empty')), to: contentRef });
const links = (max: number) => v.pipe(v.array(link, 'must be an array of links'), v.maxLength(max, `must hold at most ${max} links`));

/**
 * A font of the site's own (the public `CustomizationFontDefinitionInput`): its family name and
 * `@font-face` files. The family is written into the page's style, so it is letters, digits,
 * spaces and `. _ -` only; the files are http(s) URLs, which the reader's CSP then allows.
 */
// A check rather than a picklist: a definition whose values are only wrong (not of the wrong
// type) keeps the union's answer on the exact field (`styling.font.fontFaces.0.sources.0.format`).
const fontFormat = v.pipe(v.string('must be a string'), v.check((f) => (FONT_FORMATS as readonly string[]).includes(f), `must be one of ${FONT_FORMATS.join(', ')}`));
const fontDefinition = v.object({
  id: v.pipe(str(100), v.minLength(1, 'must not be empty')),
  custom: bool,
  fontFamily: v.pipe(str(50), v.regex(FONT_FAMILY, 'must be a font family name: letters, digits, spaces, dots, underscores and hyphens')),
  fontFaces: v.pipe(v.array(v.object({
    weight: v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be 1 to 1000'), v.maxValue(1000, 'must be 1 to 1000')),
    sources: v.pipe(
      v.array(v.object({ url, format: v.optional(fontFormat) }), 'must be an array of font files'),
      v.minLength(1, 'must hold at least one font file'), v.maxLength(4, 'must hold at most 4 font files'),
    ),
  }), 'must be an array of font faces'), v.minLength(1, 'must hold at least one font face'), v.maxLength(18, 'must hold at most 18 font faces')),
});
/** A font of the public list, or a font definition (an object is checked field by field). */
const fontChoice = <const T extends readonly string[]>(names: T) => v.union([oneOf(names), fontDefinition], `must be one of ${names.join(', ')}, or a font definition {id, custom, fontFamily, fontFaces}`);

const fonts = ['ABCFavorit', 'Inter', 'Roboto', 'RobotoSlab', 'OpenSans', 'SourceSansPro', 'Lato', 'Ubuntu', 'Raleway', 'Merriweather', 'Overpass', 'NotoSans', 'IBMPlexSerif', 'Poppins', 'FiraSans'] as const;
const monospaceFonts = ['FiraCode', 'IBMPlexMono', 'JetBrainsMono', 'SourceCodePro', 'RobotoMono', 'SpaceMono', 'DMMono', 'Inconsolata'] as const;
const codeTheme = v.object({ light: str(40), dark: str(40) });

const styling = v.object({
  theme: oneOf(['clean', 'muted', 'bold', 'gradient']),
  primaryColor: themedColor,
  tint: v.optional(v.object({ color: themedColor })),
  infoColor: themedColor,
  successColor: themedColor,
  warningColor: themedColor,
  dangerColor: themedColor,
  corners: oneOf(['straight', 'rounded', 'circular']),
  depth: oneOf(['subtle', 'flat']),
  links: oneOf(['default', 'accent']),
  font: fontChoice(fonts),
  monospaceFont: fontChoice(monospaceFonts),
  background: oneOf(['plain', 'match']),
  icons: oneOf(['regular', 'solid', 'duotone', 'light', 'thin']),
  codeTheme: v.object({ default: codeTheme, openapi: codeTheme }),
  sidebar: v.object({ background: oneOf(['default', 'filled']), list: oneOf(['default', 'pill', 'line']) }),
  search: oneOf(['prominent', 'subtle']),
});

const entries = {
  title: v.optional(v.pipe(text(128), minChars(2, 'must be 2 to 128 characters'))),
  styling,
  internationalization: v.object({ locale: oneOf(['en', 'fr', 'es', 'zh', 'ja', 'de', 'nl', 'no', 'pt-br', 'ru']) }),
  favicon: v.union([
    v.object({ icon: themedUrl }),
    v.object({ emoji: v.pipe(str(50), v.regex(/^\p{Extended_Pictographic}[\u{FE0F}\u{200D}\p{Extended_Pictographic}]{0,6}$/u, 'must be one emoji')) }),
    v.object({}),
  ], 'must be {icon: {light, dark}}, {emoji} or {}'),
  header: v.object({
    preset: oneOf(['default', 'bold', 'contrast', 'custom', 'none']),
    logo: v.optional(themedUrl),
    links: v.pipe(v.array(v.object({
      title: v.pipe(text(128), v.minLength(1, 'must not be empty')),
      style: v.optional(oneOf(['link', 'button-primary', 'button-secondary'])),
      to: v.nullable(contentRef),
      links: links(20),
      condition: v.optional(conditionExpression),
    }), 'must be an array of header items'), v.maxLength(10, 'must hold at most 10 items')),
  }),
  footer: v.object({
    logo: v.optional(themedUrl),
    groups: v.pipe(v.array(v.object({ title: v.pipe(text(128), v.minLength(1, 'must not be empty')), links: links(20) }), 'must be an array of link groups'), v.maxLength(10, 'must hold at most 10 groups')),
    copyright: v.optional(text(512)),
  }),
  announcement: v.optional(v.object({
    enabled: bool,
    message: v.pipe(v.string('must be a string'), minChars(2, 'must be 2 to 128 characters'), maxChars(128, 'must be 2 to 128 characters')),
    link: v.optional(link),
    style: oneOf(['info', 'warning', 'danger', 'success']),
  })),
  themes: v.object({ default: oneOf(['light', 'dark', 'system']), toggeable: bool }),
  feedback: v.object({ enabled: bool }),
  ai: v.object({ mode: oneOf(['none', 'search', 'assistant']) }),
  advancedCustomization: v.object({ enabled: bool }),
  pageActions: v.object({ items: v.pipe(v.array(oneOf(pageActionTypes)), v.maxLength(pageActionTypes.length, 'lists an action twice')) }),
  externalLinks: v.object({ target: oneOf(['self', 'blank']) }),
  pagination: v.object({ enabled: bool }),
  trademark: v.object({ enabled: bool }),
  privacyPolicy: v.object({ url: v.optional(url) }),
  socialPreview: v.object({ url: v.optional(url) }),
  socialAccounts: v.pipe(v.array(v.object({
    platform: str(40),
    handle: v.pipe(str(100), v.minLength(1, 'must not be empty')),
    display: v.object({ footer: bool, header: bool }),
  })), v.maxLength(10, 'must hold at most 10 accounts')),
  insights: v.object({ trackingCookie: bool }),
  pdf: v.optional(v.object({ enabled: bool })),
  git: v.optional(v.object({ showEditLink: bool })),
};

/** PUT /orgs/{organizationId}/sites/{siteId}/customization: the site's whole settings. */
export const siteCustomizationBody = v.object(entries);
export type SiteCustomizationInput = v.InferOutput<typeof siteCustomizationBody>;

/** An object schema whose fields may each be left out or set to null (reset); one level of nesting the same. */
function overrides(schema: v.ObjectSchema<v.ObjectEntries, undefined>, nested: boolean): v.GenericSchema {
  const out: v.ObjectEntries = {};
  for (const [key, entry] of Object.entries(schema.entries)) {
    const inner = (entry.type === 'optional' ? (entry as v.OptionalSchema<v.GenericSchema, undefined>).wrapped : entry) as v.GenericSchema;
    const partial = nested && inner.type === 'object' ? overrides(inner as v.ObjectSchema<v.ObjectEntries, undefined>, false) : inner;
    out[key] = v.optional(v.nullable(partial));
  }
  return v.object(out);
}

/** PATCH /orgs/{organizationId}/sites/{siteId}/site-spaces/{siteSpaceId}/customization: overrides of the site's settings. */
export const siteSpaceCustomizationBody = v.pipe(
  overrides(siteCustomizationBody as unknown as v.ObjectSchema<v.ObjectEntries, undefined>, true) as v.GenericSchema<Record<string, unknown>>,
  v.check((body) => Object.keys(body).length > 0, 'must set at least one customization field'),
);
