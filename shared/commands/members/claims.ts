import { SignJWT } from 'jose';
import { config } from '../../config.ts';
import { derivedKey } from '../../secrets/keys.ts';
import { nowEpochSeconds } from '../../clock.ts';
import type { MemberItem } from '../../db/entities/member.ts';

export const VISITOR_CLAIMS_TTL_SECONDS = 60 * 60;

/**
 * The JWT the ping returns in `serviceVisitorClaims` (spec 4.13, 5.3): HS256 with
 * the service's 'visitor-claims' key (shared/secrets/keys.ts); sub = user id, org = organization id, role = org role
 * (null for guests), iat, exp = iat + 1 hour, iss = the API's public URL.
 */
export async function signVisitorClaims(member: MemberItem): Promise<string> {
  const now = nowEpochSeconds();
  return new SignJWT({ org: member.orgId, role: member.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(member.userId)
    .setIssuer(config.apiUrl)
    .setIssuedAt(now)
    .setExpirationTime(now + VISITOR_CLAIMS_TTL_SECONDS)
    .sign(await derivedKey('visitor-claims'));
}
