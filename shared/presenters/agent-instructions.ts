import type { AgentInstructionsItem } from '../db/entities/org-records.ts';
import type { OrganizationItem } from '../db/entities/organization.ts';
import { apiLocation } from './urls.ts';
import type { AgentInstructionsOutput } from './schemas/organization.ts';

/** The document an organization's instructions start as: empty, current schema version. */
export function emptyInstructions() {
  return { object: 'document' as const, data: { schemaVersion: 1 }, nodes: [] };
}

/**
 * AgentInstructions (spec 2.14). Before the first PUT there is no stored item: the
 * organization then has the empty document, dated and authored by the organization's
 * creation (`updatedBy` its creator: the public interface requires a user id).
 */
export function presentAgentInstructions(org: OrganizationItem, item: AgentInstructionsItem | undefined): AgentInstructionsOutput {
  return {
    object: 'agent-instructions' as const,
    instructions: (item?.instructions as AgentInstructionsOutput['instructions'] | undefined) ?? emptyInstructions(),
    updatedAt: item?.updatedAt ?? org.createdAt,
    updatedBy: item?.updatedBy ?? org.createdBy ?? '',
    urls: { location: apiLocation(`/orgs/${org.id}/agent-instructions`) },
  };
}
