import { memberEntity } from '../db/entities/member.ts';
import type { Key } from '../db/table.ts';
import { forbidden } from './errors.ts';
import type { Caller } from './env.ts';
import type { RecordLoader } from './loader.ts';

/**
 * A token bound to one organization (an SSO login's: the identity provider of that
 * organization vouched for the person, and it speaks for no other) sees no membership of its
 * user anywhere else. Every access check reads the caller's membership through the request's
 * loader, so hiding those records there makes each other organization, and everything in it,
 * answer as to a non-member (404). Operations that act on the user's account across
 * organizations refuse a bound token (`refuseOutsideBinding`).
 */
export function bindToOrganization(loader: RecordLoader, userId: string, orgId: string): void {
  const own = memberEntity.key({ orgId, userId });
  loader.hide((key: Key) => key.sk === own.sk && key.pk !== own.pk);
}

/** Whether the caller's token may act in this organization (every unbound token may). */
export function opensOrganization(caller: Caller, orgId: string): boolean {
  return caller.orgId === undefined || caller.orgId === orgId;
}

/** 403 for a token bound elsewhere, on an operation that does not go through a membership (joining). */
export function refuseOutsideBinding(caller: Caller, orgId: string): void {
  if (!opensOrganization(caller, orgId)) {
    throw forbidden(`This token comes from the SSO login of organization ${caller.orgId} and opens that organization only`);
  }
}
