import { defineEntity } from '../entity.ts';

/** Small records that live in an organization's partition. */

export interface InviteItem {
  id: string;
  orgId: string;
  role: string | null;
  createdAt: string;
}

/** ORG#<org> / INVITE#<id>: link invites. */
export const inviteEntity = defineEntity<InviteItem>()({
  type: 'invite',
  key: ({ orgId, inviteId }: { orgId: string; inviteId: string }) => ({ pk: `ORG#${orgId}`, sk: `INVITE#${inviteId}` }),
});

export interface AgentInstructionsItem {
  orgId: string;
  instructions: Record<string, unknown>;
  updatedAt: string;
  updatedBy: string;
}

/** ORG#<org> / AGENT_INSTRUCTIONS. */
export const agentInstructionsEntity = defineEntity<AgentInstructionsItem>()({
  type: 'agent-instructions',
  key: ({ orgId }: { orgId: string }) => ({ pk: `ORG#${orgId}`, sk: 'AGENT_INSTRUCTIONS' }),
});

const domainPartition = (domain: string) => `EMAILDOMAIN#${domain.toLowerCase()}`;

export interface EmailDomainItem {
  domain: string;
  orgId: string;
}

/** EMAILDOMAIN#<domain> / ORG#<org>: organizations allowing an email domain, one Query. */
export const emailDomainEntity = defineEntity<EmailDomainItem>()({
  type: 'email-domain',
  key: ({ domain, orgId }: { domain: string; orgId: string }) => ({ pk: domainPartition(domain), sk: `ORG#${orgId}` }),
  partitions: {
    byDomain: (a: { domain: string }) => ({ pk: domainPartition(a.domain) }),
  },
});

export interface HostnameItem {
  hostname: string;
  orgId: string;
}

/**
 * HOSTNAME#<host> / HOSTNAME: the organization that set this host name with PATCH (one per
 * name). Default names (`<org id>.<PUBLISHED_DOMAIN>`) have none: they are unique by the id,
 * and no organization may set a name under the published domain but its own
 * (shared/commands/organizations/hostname.ts).
 */
export const hostnameEntity = defineEntity<HostnameItem>()({
  type: 'hostname',
  key: ({ hostname }: { hostname: string }) => ({ pk: `HOSTNAME#${hostname.toLowerCase()}`, sk: 'HOSTNAME' }),
});
