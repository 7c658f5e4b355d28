import { describe, expect, it } from 'vitest';
import { clientFailure, officialClient } from './support/official-client.ts';
import { useTestApi, newOrg } from './support/api.ts';
import { getRecord } from '../shared/db/operations.ts';
import { memberEntity } from '../shared/db/entities/member.ts';
import { teamEntity } from '../shared/db/entities/team.ts';

/**
 * An organization admin onboarding a team with the official client (@gitbook/api), as its
 * users write it: members, roles, a team, the member's teams, removals, the last-admin rule.
 * Every answer goes through the client's own parsing (205 and 204 without a body included).
 */
const api = useTestApi();

const client = (token: string) => officialClient(api, token);

const failure = clientFailure;

describe('onboarding through @gitbook/api', () => {
  it('lists and promotes members, builds a team, lists the member\'s teams, removes, and keeps the last admin', async () => {
    const org = await newOrg('Onboarding');
    const [writer, reviewer] = [await org.member('read', 'Writer'), await org.member('read', 'Reviewer')];
    const admin = client(org.admin.token);

    const members = await admin.orgs.listMembersInOrganizationById(org.id, { limit: 10, search: 'writer' });
    expect(members.data.items.map((m) => [m.id, m.role])).toEqual([[writer.user.id, 'read']]);
    const promoted = await admin.orgs.updateMemberInOrganizationById(org.id, writer.user.id, { role: 'edit' as never });
    expect(promoted.data).toMatchObject({ object: 'member', id: writer.user.id, role: 'edit' });
    expect((await getRecord(memberEntity.key({ orgId: org.id, userId: writer.user.id })))!.role).toBe('edit');

    const team = await admin.orgs.createOrganizationTeam(org.id, { title: 'Docs writers', members: [writer.user.id, reviewer.user.id] });
    expect(team.status).toBe(201);
    expect(team.data).toMatchObject({ object: 'team', title: 'Docs writers', members: 2, permissions: { admin: true, view: true } });
    const renamed = await admin.orgs.updateTeamInOrganizationById(org.id, team.data.id, { title: 'Technical writers' });
    expect(renamed.data.title).toBe('Technical writers');
    // The writer sees their own teams (and only with their own token, not another member's).
    const own = await client(writer.token).orgs.listTeamsForOrganizationMember(org.id, writer.user.id, { title: 'technical' });
    expect(own.data.items.map((i) => [i.team.id, i.team.title, i.member.role])).toEqual([[team.data.id, 'Technical writers', 'member']]);
    expect(await failure(client(writer.token).orgs.listTeamsForOrganizationMember(org.id, reviewer.user.id)))
      .toEqual({ code: 403, message: 'Listing another member\'s spaces or teams requires the admin role' });

    // Removing a member takes them out of the team; a second removal is a 204 too.
    expect((await admin.orgs.removeMemberFromOrganizationById(org.id, reviewer.user.id)).status).toBe(204);
    expect((await admin.orgs.removeMemberFromOrganizationById(org.id, reviewer.user.id)).status).toBe(204);
    expect((await admin.orgs.getTeamInOrganizationById(org.id, team.data.id)).data.members).toBe(1);
    expect(await failure(client(reviewer.token).orgs.getOrganizationById(org.id)))
      .toEqual({ code: 404, message: `No organization found with id ${org.id}` });

    // The last admin can neither leave nor step down.
    const lastAdmin = 'The last admin of an organization cannot be removed or demoted; make another member admin first';
    expect(await failure(admin.orgs.removeMemberFromOrganizationById(org.id, org.admin.user.id))).toEqual({ code: 409, message: lastAdmin });
    expect(await failure(admin.orgs.updateMemberInOrganizationById(org.id, org.admin.user.id, { role: 'read' as never })))
      .toEqual({ code: 409, message: lastAdmin });
    expect((await getRecord(memberEntity.key({ orgId: org.id, userId: org.admin.user.id })))!.role).toBe('admin');

    // Deleting the team: 205 once deleted, 204 when there is nothing to delete.
    expect((await admin.orgs.removeTeamFromOrganizationById(org.id, team.data.id)).status).toBe(205);
    expect((await admin.orgs.removeTeamFromOrganizationById(org.id, team.data.id)).status).toBe(204);
    expect(await getRecord(teamEntity.key({ orgId: org.id, teamId: team.data.id }))).toBeUndefined();
    expect((await getRecord(memberEntity.key({ orgId: org.id, userId: writer.user.id })))!.teams).toBe(0);
  });
});
