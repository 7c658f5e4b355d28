import * as v from 'valibot';
import { siteSectionSchema, type SiteSectionOutput } from './site-section.ts';
import { siteSpaceSchema } from './site-space.ts';
import { maxChars } from '../../http/string-length.ts';

export interface SiteSectionGroupOutput {
  object: 'site-section-group';
  id: string;
  title: string;
  sectionGroup?: string;
  icon?: string;
  draft: boolean;
  /** Its sections alone (deprecated in the public interface in favour of `children`). */
  sections: SiteSectionOutput[];
  /** Its sections and nested groups, in order. */
  children: (SiteSectionOutput | SiteSectionGroupOutput)[];
}

/** SiteSectionGroup (spec 2.12); recursive through `children`. */
export const siteSectionGroupSchema: v.GenericSchema<SiteSectionGroupOutput> = v.object({
  object: v.literal('site-section-group'),
  id: v.string(),
  title: v.pipe(v.string(), v.minLength(1), maxChars(100)),
  sectionGroup: v.optional(v.string()),
  icon: v.optional(v.pipe(v.string(), v.maxLength(50))),
  draft: v.boolean(),
  sections: v.array(siteSectionSchema),
  children: v.array(v.union([siteSectionSchema, v.lazy(() => siteSectionGroupSchema)])),
});

/** A site's structure: its root site spaces, or its sections and groups from the root. */
export const siteStructureSchema = v.variant('type', [
  v.object({ type: v.literal('siteSpaces'), structure: v.array(siteSpaceSchema) }),
  v.object({ type: v.literal('sections'), structure: v.array(v.union([siteSectionSchema, siteSectionGroupSchema])) }),
]);
export type SiteStructureOutput = v.InferOutput<typeof siteStructureSchema>;
