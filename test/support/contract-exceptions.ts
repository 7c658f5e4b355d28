/**
 * Where the spec (../shared/spec/service-interface.md) and the public description of the
 * official client (`@gitbook/api` spec/openapi.json) disagree, the spec wins. Each entry
 * is one such disagreement, allowed by test/support/contract.ts and listed with its reason
 * in docs/decisions.md ("Contract exceptions"). Nothing else may differ.
 *
 * An entry matches a violation when every field it gives matches: `operation` is
 * "METHOD <public path template>", `status` the answer's status, `error` a pattern over the
 * violation message (an undocumented status, or an ajv error "<instancePath> <message>").
 */
export interface ContractException {
  operation?: string;
  status?: number;
  error?: RegExp;
  reason: string;
}

export const contractExceptions: ContractException[] = [
  {
    // Spec 2.3: `hostname` is the organization's default hostname, served as a full host name
    // (`<org>.<PUBLISHED_DOMAIN>`, or one set with PATCH); the public description caps it at
    // 32 characters, the length of a bare subdomain label. Organizations appear in many answers.
    error: /\/hostname must NOT have more than 32 characters/,
    reason: 'organization hostname is a full host name',
  },
  {
    // Spec 2.3: `defaultContent` is `{type: site, site}` "(a space or collection variant also
    // exists)"; the public description only lists the site variant.
    error: /\/defaultContent\b/,
    reason: 'organization defaultContent space and collection variants',
  },
  {
    // Spec 2.13 knows event `status` `success` "(only)"; an event waits for the integration
    // events worker as `pending`, a state the public description (success, failed) lacks.
    operation: 'GET /integrations/{integrationName}/events',
    error: /^\/items\/\d+\/status must be equal to one of the allowed values/,
    reason: 'integration event pending before dispatch',
  },
  {
    operation: 'GET /integrations/{integrationName}/events/{eventId}',
    error: /^\/event\/status must be equal to one of the allowed values/,
    reason: 'integration event pending before dispatch',
  },
];
