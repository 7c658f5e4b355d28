import { organizationEntity } from '../db/entities/organization.ts';
import { createAccessToken } from '../commands/tokens/create.ts';
import { createOrganization } from '../commands/organizations/create.ts';
import { createUser, getUser } from '../commands/users/create.ts';

export const LOCAL_ADMIN_ID = 'local-admin';
export const LOCAL_ORG_ID = 'local';

/**
 * Ensures the local admin user and organization exist and returns a bearer token for
 * the admin: BOOTSTRAP_TOKEN when set, else a fresh one (only hashes are stored, so an
 * earlier token cannot be shown again).
 */
export async function bootstrapLocalAdmin(): Promise<{ token: string; userId: string; organizationId: string }> {
  const user = (await getUser(LOCAL_ADMIN_ID))
    ?? await createUser({ id: LOCAL_ADMIN_ID, displayName: 'Local Admin', email: 'admin@example.com', emailVerified: true });
  if (!(await organizationEntity.get({ orgId: LOCAL_ORG_ID }))) {
    await createOrganization({ id: LOCAL_ORG_ID, title: 'Local Organization', owner: user });
  }
  const token = await createAccessToken(user.id, 'local bootstrap', { secret: process.env.BOOTSTRAP_TOKEN || undefined });
  return { token, userId: user.id, organizationId: LOCAL_ORG_ID };
}
