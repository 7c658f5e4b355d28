import * as v from 'valibot';
import { spaceVisibilities } from '../../db/entities/space.ts';
import { countSchema, defaultLevelSchema, mergeRulesSchema, timestampSchema, urlSchema } from './common.ts';
import { gitSyncProviders } from './git-info.ts';

/** Space (spec 2.7). */
export const spaceSchema = v.object({
  object: v.literal('space'),
  id: v.string(),
  title: v.string(),
  /** '' when the space has none. */
  emoji: v.string(),
  visibility: v.picklist(spaceVisibilities),
  createdAt: timestampSchema,
  updatedAt: timestampSchema,
  /** Set while the space is in the trash (restorable for 7 days). */
  deletedAt: v.optional(timestampSchema),
  editMode: v.picklist(['live', 'locked']),
  mergeRules: mergeRulesSchema,
  urls: v.object({
    location: urlSchema,
    app: urlSchema,
    published: v.optional(urlSchema),
    /** Only for public and unlisted spaces. */
    public: v.optional(urlSchema),
    icon: v.optional(urlSchema),
  }),
  organization: v.string(),
  parent: v.optional(v.string()),
  language: v.optional(v.string()),
  gitSync: v.optional(v.object({
    installationId: v.string(),
    installationStatus: v.picklist(['active', 'pending', 'unauthenticated']),
    installationProvider: v.picklist(gitSyncProviders),
    repoName: v.optional(v.string()),
    integration: v.optional(v.string()),
    url: v.optional(v.string()),
    updatedAt: v.optional(v.string()),
  })),
  visitorAuth: v.optional(v.object({ backend: v.string() })),
  /** Id of the active revision ('' before the space has content). */
  revision: v.string(),
  defaultLevel: defaultLevelSchema,
  comments: countSchema,
  changeRequests: countSchema,
  changeRequestsOpen: countSchema,
  changeRequestsDraft: countSchema,
  permissions: v.object({
    view: v.boolean(),
    access: v.boolean(),
    admin: v.boolean(),
    viewInviteLinks: v.boolean(),
    edit: v.boolean(),
    triggerGitSync: v.boolean(),
    comment: v.boolean(),
    merge: v.boolean(),
    review: v.boolean(),
    installIntegration: v.boolean(),
  }),
});
export type SpaceOutput = v.InferOutput<typeof spaceSchema>;
