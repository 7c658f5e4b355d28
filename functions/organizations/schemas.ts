import * as v from 'valibot';
import { id, listQueryEntries, mergeRules, nullableRole, oneLine, partialBody, richDocument } from '../../shared/http/schemas.ts';
export { organizationParams } from '../../shared/http/schemas.ts';
export { searchQuery } from '../../shared/http/schemas.ts';
import { maxChars, minChars } from '../../shared/http/string-length.ts';
import { isPublicEmailDomain } from '../../shared/commands/organizations/public-email-domains.ts';

export const inviteParams = v.object({ organizationId: id, inviteId: id });

/** A DNS name with at least two labels and an alphabetic (or punycode) top-level label. */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;
/** A host name: one or more DNS labels (a bare label such as "acme" is accepted). */
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** An email domain, compared and stored lower-cased. */
export const emailDomain = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.maxLength(253, 'must be at most 253 characters'),
  v.regex(DOMAIN, 'must be a valid domain name (e.g. example.com)'),
);

export const emailDomainParams = v.object({ emailDomain });

/**
 * At most 40 domains: a PATCH that replaces every domain touches old + new index items
 * and the organization in one transaction, which DynamoDB caps at 100 items.
 */
export const MAX_EMAIL_DOMAINS = 40;

/** A domain an organization may claim: not a public email provider's (shared/commands/organizations/public-email-domains.ts). */
const claimableEmailDomain = v.pipe(
  emailDomain,
  v.check((domain) => !isPublicEmailDomain(domain), (issue) => `${String(issue.input)} is a public email provider's domain: anyone can have an address there`),
);

const emailDomains = v.pipe(
  v.array(claimableEmailDomain, 'must be an array of domain names'),
  v.maxLength(MAX_EMAIL_DOMAINS, `must hold at most ${MAX_EMAIL_DOMAINS} domains`),
  // Set semantics: duplicates (after lower-casing) collapse, first occurrence keeps its place.
  v.transform((domains) => [...new Set(domains)]),
);

const title = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.nonEmpty('must not be empty'),
  // The public interface's organization titles are at least 2 characters.
  minChars(2),
  maxChars(100),
  oneLine,
);

const hostname = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.toLowerCase(),
  v.minLength(3, 'must be at least 3 characters'),
  v.maxLength(253, 'must be at most 253 characters'),
  v.regex(HOSTNAME, 'must be a host name (letters, digits, hyphens and dots)'),
);

/**
 * Default content of the organization: a site, space or collection of the same organization
 * (checked by the route: "invalid default content space or collection provided" is a 400).
 * null clears it.
 */
const defaultContent = v.nullable(v.variant('type', [
  v.strictObject({ type: v.literal('site'), site: id }),
  v.strictObject({ type: v.literal('space'), space: id }),
  v.strictObject({ type: v.literal('collection'), collection: id }),
], 'must be {type: site, site}, {type: space, space} or {type: collection, collection}'));

const logo = v.nullable(v.pipe(
  v.string('must be a string'),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.url('must be a URL'),
  v.check((s) => /^https?:\/\//i.test(s), 'must be an http or https URL'),
));

const flag = v.boolean('must be a boolean');

export const updateOrganizationBody = partialBody({
    title: v.optional(title),
    emailDomains: v.optional(emailDomains),
    hostname: v.optional(hostname),
    defaultRole: v.optional(nullableRole),
    defaultContent: v.optional(defaultContent),
    logo: v.optional(logo),
    sso: v.optional(flag),
    ai: v.optional(flag),
    inviteLinks: v.optional(flag),
    mergeRules: v.optional(mergeRules),
  });
export type UpdateOrganizationBody = v.InferOutput<typeof updateOrganizationBody>;

export const listQuery = v.object(listQueryEntries);

/** Serialized size cap of stored instructions (a DynamoDB item holds at most 400 KB). */
export const MAX_INSTRUCTIONS_BYTES = 256 * 1024;

const instructions = v.pipe(
  v.custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'must be a rich document {object: "document", data, nodes}',
  ),
  richDocument,
  v.check(
    (doc) => Buffer.byteLength(JSON.stringify(doc)) <= MAX_INSTRUCTIONS_BYTES,
    `must be at most ${MAX_INSTRUCTIONS_BYTES / 1024} KB once serialized`,
  ),
);

export const updateAgentInstructionsBody = v.pipe(
  v.strictObject({ instructions: v.optional(instructions) }),
  v.forward(v.check((b) => b.instructions !== undefined, 'is required'), ['instructions']),
);
