import type { OrganizationItem } from '../db/entities/organization.ts';
import type { Role } from '../http/schemas.ts';
import { policies } from '../policies/index.ts';
import { apiLocation, appLocation } from './urls.ts';
import type { OrganizationOutput } from './schemas/organization.ts';

export interface OrganizationPresentationContext {
  /** The caller's org role: a role, null for guests, undefined when not a member. */
  role: Role | null | undefined;
}

/**
 * Billing as the interface shapes it. The service runs no billing system: nothing is
 * purchasable (canCheckout false), every price is 0 and no add-on is enabled.
 */
function defaultBilling() {
  const free = { monthly: 0, yearly: 0 };
  return {
    interval: 'monthly' as const,
    endDate: null,
    hasPaymentFailed: false,
    canCheckout: false,
    isScheduledToCancel: false,
    pricing: {
      members: { plus_2024: free, pro_2024: free },
      sites: { premium: free, ultimate: free },
    },
    usageAddons: {},
    canChangeInterval: false,
    canUseSAML: true,
    creditsBundle: null,
    aiCreditAlertThreshold: null,
  };
}

/**
 * Organization (spec 2.3), every field; `permissions` computed for the caller's org role.
 * - Optional fields the organization has no value for (useCase, communityType,
 *   defaultContent, urls.logo, customHostname) are left out rather than null.
 * - `billing` is "only available for org members": left out for non-members (who only see
 *   organizations through the email-domain lookup).
 * - `trial` is deprecated (all organizations are on new trials): a fixed "none, 0 used".
 * - `blocked` and `internal_billingMigration` are never set by this service, so never shown.
 * - `permissions.access` ("view the organization in the application") is in the official
 *   interface beside the spec's list; it follows `view`.
 */
export function presentOrganization(org: OrganizationItem, context: OrganizationPresentationContext): OrganizationOutput {
  const member = context.role !== undefined;
  const permissions = policies.organization.permissions(context, org);
  return {
    object: 'organization' as const,
    id: org.id,
    title: org.title,
    createdAt: org.createdAt,
    emailDomains: org.emailDomains,
    hostname: org.hostname,
    type: org.type,
    ...(org.useCase !== undefined ? { useCase: org.useCase } : {}),
    ...(org.communityType !== undefined ? { communityType: org.communityType } : {}),
    defaultRole: org.defaultRole,
    ...(org.defaultContent ? { defaultContent: org.defaultContent } : {}),
    sso: org.sso,
    ai: org.ai,
    inviteLinks: org.inviteLinks,
    plan: org.plan,
    ...(member ? { billing: defaultBilling() } : {}),
    mergeRules: org.mergeRules,
    urls: {
      location: apiLocation(`/orgs/${org.id}`),
      app: appLocation(`/o/${org.id}`),
      ...(org.logo ? { logo: org.logo } : {}),
    },
    trial: { status: 'none' as const, count: 0 },
    ...(org.customHostname ? { customHostname: org.customHostname } : {}),
    permissions: { ...permissions, access: permissions.view },
  };
}

export type PresentedOrganization = OrganizationOutput;
