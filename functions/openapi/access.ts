import type { Context } from 'hono';
import type { AppEnv } from '../../shared/http/env.ts';
import { policies } from '../../shared/policies/index.ts';
import { loadOrgAccess, type OrgAccess } from '../../shared/policies/access.ts';

/** Who may read and who may write an organization's OpenAPI specs (every route of the group). */

type Ctx = Context<AppEnv>;

/** Any non-guest member. */
export async function readAccess(c: Ctx, orgId: string): Promise<OrgAccess> {
  const access = await loadOrgAccess(c.var.scope, orgId);
  policies.organization.authorize(access, 'browse');
  return access;
}

/** The `createOpenAPISpec` permission (role create or above). */
export async function writeAccess(c: Ctx, orgId: string): Promise<OrgAccess> {
  const access = await loadOrgAccess(c.var.scope, orgId);
  policies.organization.authorize(access, 'createOpenAPISpec');
  return access;
}
