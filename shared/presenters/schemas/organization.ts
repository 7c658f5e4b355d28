import * as v from 'valibot';
import { mergeRulesSchema, nullableRoleSchema, richDocumentSchema, timestampSchema, urlSchema } from './common.ts';

const pricePairSchema = v.object({ monthly: v.number(), yearly: v.number() });

/** Billing as the interface shapes it (the service runs no billing: shared/presenters/organization.ts). */
const billingSchema = v.object({
  interval: v.picklist(['monthly', 'yearly']),
  endDate: v.nullable(timestampSchema),
  hasPaymentFailed: v.boolean(),
  canCheckout: v.boolean(),
  isScheduledToCancel: v.boolean(),
  pricing: v.object({
    members: v.object({ plus_2024: pricePairSchema, pro_2024: pricePairSchema }),
    sites: v.object({ premium: pricePairSchema, ultimate: pricePairSchema }),
  }),
  usageAddons: v.record(v.string(), v.object({ enabled: v.boolean() })),
  canChangeInterval: v.boolean(),
  canUseSAML: v.boolean(),
  creditsBundle: v.null(),
  aiCreditAlertThreshold: v.nullable(v.number()),
});

const defaultContentSchema = v.variant('type', [
  v.object({ type: v.literal('site'), site: v.string() }),
  v.object({ type: v.literal('space'), space: v.string() }),
  v.object({ type: v.literal('collection'), collection: v.string() }),
]);

/** Organization (spec 2.3). */
export const organizationSchema = v.object({
  object: v.literal('organization'),
  id: v.string(),
  title: v.string(),
  createdAt: timestampSchema,
  emailDomains: v.array(v.string()),
  hostname: v.string(),
  type: v.string(),
  useCase: v.optional(v.string()),
  communityType: v.optional(v.string()),
  defaultRole: nullableRoleSchema,
  defaultContent: v.optional(defaultContentSchema),
  sso: v.boolean(),
  ai: v.boolean(),
  inviteLinks: v.boolean(),
  plan: v.string(),
  /** Only for members of the organization. */
  billing: v.optional(billingSchema),
  mergeRules: mergeRulesSchema,
  urls: v.object({ location: urlSchema, app: urlSchema, logo: v.optional(urlSchema) }),
  /** Deprecated (spec 9 item 4): a fixed "none, 0 used". */
  trial: v.object({ status: v.literal('none'), count: v.number() }),
  customHostname: v.optional(v.string()),
  permissions: v.object({
    view: v.boolean(),
    access: v.boolean(),
    admin: v.boolean(),
    ownTeam: v.boolean(),
    createContent: v.boolean(),
    createOpenAPISpec: v.boolean(),
    ingestConversations: v.boolean(),
    viewBilling: v.boolean(),
    listMembers: v.boolean(),
    listTeams: v.boolean(),
    listIntegrations: v.boolean(),
    listInstallations: v.boolean(),
    installIntegration: v.boolean(),
  }),
});
export type OrganizationOutput = v.InferOutput<typeof organizationSchema>;

/** GET /email-domains/{emailDomain}/orgs. */
export const emailDomainOrganizationsSchema = v.object({ organizations: v.array(organizationSchema) });

/** AgentInstructions (spec 2.14). */
export const agentInstructionsSchema = v.object({
  object: v.literal('agent-instructions'),
  instructions: richDocumentSchema,
  updatedAt: timestampSchema,
  /** The member who last wrote them; the organization's creator before the first PUT. */
  updatedBy: v.string(),
  urls: v.object({ location: urlSchema }),
});
export type AgentInstructionsOutput = v.InferOutput<typeof agentInstructionsSchema>;
