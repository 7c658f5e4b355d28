import { changeRequestEntity } from '../../db/entities/change-request.ts';
import { run } from '../../db/writes.ts';

/**
 * After a space moves to another organization, its change requests follow: their `orgId`
 * and their entry in the organization's change request list (gsi1) are rewritten.
 */
export async function moveChangeRequestsToOrganization(spaceId: string, orgId: string): Promise<void> {
  for (const cr of await changeRequestEntity.query.bySpace({ spaceId }).all()) {
    await run(changeRequestEntity.update({ spaceId, changeRequestId: cr.id }, { set: { orgId }, reindex: { ...cr, orgId } }));
  }
}
