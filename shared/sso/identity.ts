import * as v from 'valibot';
import type { Profile } from '@node-saml/node-saml';
import { refused } from './errors.ts';
import { sliceChars } from '../http/string-length.ts';

/** Attribute names identity providers use for the email address (Okta, Keycloak, Entra ID, Google, LDAP OID). */
const EMAIL_ATTRIBUTES = [
  'email', 'mail', 'emailAddress', 'Email',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
];
const DISPLAY_NAME_ATTRIBUTES = ['displayName', 'name', 'http://schemas.microsoft.com/identity/claims/displayname', 'urn:oid:2.16.840.1.113730.3.1.241'];
const GIVEN_NAME_ATTRIBUTES = ['firstName', 'givenName', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname', 'urn:oid:2.5.4.42'];
const SURNAME_ATTRIBUTES = ['lastName', 'surname', 'sn', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname', 'urn:oid:2.5.4.4'];

const emailSchema = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email());

export interface SSOIdentity {
  email: string;
  displayName: string;
}

/** First single string value among these attributes. */
function attribute(profile: Profile, names: string[]): string | undefined {
  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  for (const name of names) {
    const value = attributes[name];
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string' && first.trim()) return first.trim();
  }
  return undefined;
}

/**
 * The person an assertion names: the email is the NameID when it is an address, else an
 * email attribute; the display name comes from the usual name attributes, else the email.
 */
export function identityOf(profile: Profile): SSOIdentity {
  const candidates = [profile.nameID, attribute(profile, EMAIL_ATTRIBUTES)];
  const email = candidates.map((c) => v.safeParse(emailSchema, c)).find((r) => r.success)?.output;
  if (!email) throw refused('the assertion carries no email address (NameID or an email attribute)');
  const fullName = [attribute(profile, GIVEN_NAME_ATTRIBUTES), attribute(profile, SURNAME_ATTRIBUTES)].filter(Boolean).join(' ');
  // Cut by characters: a name of emoji or rare scripts never ends in half a character.
  const displayName = sliceChars(attribute(profile, DISPLAY_NAME_ATTRIBUTES) ?? (fullName || email), 100);
  return { email, displayName };
}
