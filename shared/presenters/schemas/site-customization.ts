import * as v from 'valibot';
import { contentRefSchema, urlSchema } from './common.ts';
import { FONT_FORMATS } from '../../reader/font-definitions.ts';
import { maxChars, minChars } from '../../http/string-length.ts';

const themed = <T extends v.GenericSchema>(value: T) => v.object({ light: value, dark: value });
const color = themed(v.string());
const link = v.object({ title: v.string(), to: contentRefSchema });

/** Page actions of the page menu, in order (public `CustomizationPageActionType`). */
export const pageActionTypes = ['assistant', 'external-ai', 'markdown', 'mcp', 'git', 'pdf'] as const;

/** A site's own font (public `CustomizationFontDefinitionInput`), where a font name may be. */
const fontDefinition = v.object({
  id: v.string(),
  custom: v.boolean(),
  fontFamily: v.string(),
  fontFaces: v.array(v.object({ weight: v.number(), sources: v.array(v.object({ url: v.string(), format: v.optional(v.picklist(FONT_FORMATS)) })) })),
});
const font = v.union([v.string(), fontDefinition]);

/**
 * Customization settings of a site or a site space (spec 2.12), with the fields the public
 * description requires besides (`internationalization`, `socialAccounts`, `styling.codeTheme`,
 * `styling.background`, `header.preset`, `pageActions.items`). `announcement` only when one
 * is configured: its message is 2 to 128 characters.
 */
export const siteCustomizationSchema = v.object({
  title: v.string(),
  styling: v.object({
    theme: v.string(),
    primaryColor: color,
    tint: v.object({ color }),
    infoColor: color,
    successColor: color,
    warningColor: color,
    dangerColor: color,
    corners: v.string(),
    depth: v.string(),
    links: v.string(),
    font,
    monospaceFont: font,
    codeTheme: v.object({ default: themed(v.string()), openapi: themed(v.string()) }),
    background: v.picklist(['plain', 'match']),
    icons: v.string(),
    sidebar: v.object({ background: v.string(), list: v.string() }),
    search: v.string(),
  }),
  internationalization: v.object({ locale: v.string() }),
  favicon: v.object({ icon: v.optional(themed(urlSchema)), emoji: v.optional(v.string()) }),
  header: v.object({
    preset: v.picklist(['default', 'bold', 'contrast', 'custom', 'none']),
    logo: v.optional(themed(urlSchema)),
    links: v.array(v.object({ title: v.string(), style: v.optional(v.string()), to: v.optional(v.nullable(contentRefSchema)), links: v.optional(v.array(link)), condition: v.optional(v.string()) })),
  }),
  footer: v.object({
    logo: v.optional(themed(urlSchema)),
    groups: v.array(v.object({ title: v.string(), links: v.array(link) })),
    copyright: v.optional(v.string()),
  }),
  announcement: v.optional(v.object({
    enabled: v.boolean(),
    message: v.pipe(v.string(), minChars(2), maxChars(128)),
    link: v.optional(link),
    style: v.picklist(['info', 'warning', 'danger', 'success']),
  })),
  themes: v.object({ default: v.picklist(['light', 'dark', 'system']), toggeable: v.boolean() }),
  pdf: v.object({ enabled: v.boolean() }),
  feedback: v.object({ enabled: v.boolean() }),
  ai: v.object({ mode: v.string() }),
  advancedCustomization: v.object({ enabled: v.boolean() }),
  git: v.object({ showEditLink: v.boolean() }),
  pageActions: v.object({ externalAI: v.boolean(), markdown: v.boolean(), mcp: v.boolean(), items: v.array(v.picklist(pageActionTypes)) }),
  externalLinks: v.object({ target: v.string() }),
  pagination: v.object({ enabled: v.boolean() }),
  trademark: v.object({ enabled: v.boolean() }),
  privacyPolicy: v.object({ url: v.optional(urlSchema) }),
  socialPreview: v.object({ url: v.optional(urlSchema) }),
  socialAccounts: v.array(v.object({ platform: v.string(), handle: v.string(), display: v.object({ footer: v.boolean(), header: v.boolean() }) })),
  insights: v.object({ trackingCookie: v.boolean() }),
  /** When the settings were last written (absent until they are). */
  updatedAt: v.optional(v.string()),
});
export type SiteCustomizationOutput = v.InferOutput<typeof siteCustomizationSchema>;
