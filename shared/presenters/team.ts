import type { TeamItem } from '../db/entities/team.ts';
import type { Role } from '../http/schemas.ts';
import { policies } from '../policies/index.ts';
import type { TeamOutput } from './schemas/team.ts';

/**
 * Team (spec 2.5), `permissions` computed for the caller's org role. `spaces` is 0: teams
 * hold no space grants yet (content permissions are per member role and default levels).
 */
export function presentTeam(team: TeamItem, context: { role: Role | null }): TeamOutput {
  return {
    object: 'team' as const,
    id: team.id,
    title: team.title,
    members: Math.max(0, team.members ?? 0),
    spaces: 0,
    createdAt: team.createdAt,
    permissions: policies.team.permissions(context, team),
  };
}
