/**
 * A site's partition (SITE#<id>): its record, structure, share links and customizations. A module of its own, without imports: site.ts gathers the entities that live
 * there (and imports them), so they take their key from here. The prefix is also part of the
 * integration runtime's IAM scope (infra/constructs/access.ts: read only).
 */
export const SITE_KEY_PREFIX = 'SITE#';
export const sitePartition = (siteId: string) => `${SITE_KEY_PREFIX}${siteId}`;
