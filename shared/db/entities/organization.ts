import { defineEntity } from '../entity.ts';
import type { Key } from '../table.ts';
import type { Role } from '../../http/schemas.ts';

export type MergeRules =
  | { type: 'inherit' }
  | { type: 'none' }
  | { type: 'rules'; rules: { rule: string; users?: string[]; expression?: string; message?: string }[] };

export interface OrganizationItem {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
  emailDomains: string[];
  hostname: string;
  type: string;
  useCase?: string;
  communityType?: string;
  defaultRole: Role | null;
  defaultContent?: { type: 'site'; site: string } | { type: 'space'; space: string } | { type: 'collection'; collection: string };
  logo?: string;
  sso: boolean;
  ai: boolean;
  inviteLinks: boolean;
  plan: string;
  mergeRules: MergeRules;
  customHostname?: string;
  /** The user who created it (the author of its initial, empty agent instructions). */
  createdBy?: string;
}

/** ORG#<id> / ORG. */
export const organizationEntity = defineEntity<OrganizationItem>()({
  type: 'organization',
  key: ({ orgId }: { orgId: string }) => ({ pk: `ORG#${orgId}`, sk: 'ORG' }),
});

/** The organization id of an organization record's key, undefined for any other key. */
export function orgIdOfKey(key: Key): string | undefined {
  return key.sk === 'ORG' && key.pk.startsWith('ORG#') ? key.pk.slice('ORG#'.length) : undefined;
}
