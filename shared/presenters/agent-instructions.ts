import type { AgentInstructionsItem } from '../db/entities/org-records.ts';
import type { OrganizationItem } from '../db/entities/organization.ts';
import { apiLocation } from './urls.ts';

/** The document an organization's instructions start as: empty, current schema version. */
export function emptyInstructions() {
  return { object: 'document', data: { schemaVersion: 1 }, nodes: [] };
}

/**
 * AgentInstructions (spec 2.14). Before the first PUT there is no stored item: the
 * organization then has the empty document, dated from the organization's creation, and
 * `updatedBy` is null because no member ever wrote it.
 */
export function presentAgentInstructions(org: OrganizationItem, item: AgentInstructionsItem | undefined) {
  return {
    object: 'agent-instructions' as const,
    instructions: item?.instructions ?? emptyInstructions(),
    updatedAt: item?.updatedAt ?? org.createdAt,
    updatedBy: item?.updatedBy ?? null,
    urls: { location: apiLocation(`/orgs/${org.id}/agent-instructions`) },
  };
}
