import * as v from 'valibot';
import { id, listQueryEntries, nullableRole, partialBody } from '../../shared/http/schemas.ts';
import { parseCertificate } from '../../shared/sso/certificate.ts';
export { organizationParams } from '../../shared/http/schemas.ts';

/** A SAML provider's service-provider endpoints (/sso/saml/{providerId}/..., service-provider.ts). */
export const serviceProviderParams = v.object({ providerId: id });

/** Path parameters of the `sso` group (all operations). */
export const pathParams = v.partial(v.object({
  organizationId: id,
  samlProviderId: id,
}));

export const providerParams = v.object({ organizationId: id, samlProviderId: id });
export const listProvidersQuery = v.object(listQueryEntries);

/** The certificate as pasted, stored as the PEM of the one certificate it holds (shared/sso/certificate.ts). */
const certificate = v.pipe(
  v.string('must be a string'),
  v.maxLength(10000, 'must be at most 10000 characters'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const parsed = parseCertificate(dataset.value);
    if ('pem' in parsed) return parsed.pem;
    addIssue({ message: parsed.reason });
    return NEVER;
  }),
);

const fields = {
  /** SAMLProviderLabel: 1 to 30. */
  label: v.pipe(v.string('must be a string'), v.trim(), v.nonEmpty('must not be empty'), v.maxLength(30, 'must be at most 30 characters')),
  /** SAMLProviderEntityID: at most 1024. */
  entityID: v.pipe(v.string('must be a string'), v.trim(), v.nonEmpty('must not be empty'), v.maxLength(1024, 'must be at most 1024 characters')),
  /** SAMLProviderCertificate: at most 10000, one X.509 certificate, PEM or its base64 body. */
  certificate,
  /** The IdP's single sign-on URL: https only. */
  ssoURL: v.pipe(
    v.string('must be a string'), v.maxLength(2048, 'must be at most 2048 characters'), v.url('must be a URL'),
    v.check((s) => /^https:\/\//i.test(s), 'must be an https URL'),
  ),
  /** A team id of the organization (null clears it on PATCH). */
  defaultTeam: id,
  defaultRole: nullableRole,
};

/** Only the label is required: the identity provider's side may come later (status `pending`), once it is set up with `service`. */
export const createProviderBody = v.strictObject({
  label: fields.label,
  entityID: v.optional(fields.entityID),
  certificate: v.optional(fields.certificate),
  ssoURL: v.optional(fields.ssoURL),
  defaultTeam: v.optional(fields.defaultTeam),
  defaultRole: v.optional(fields.defaultRole, null),
});

export const updateProviderBody = partialBody({
  label: v.optional(fields.label),
  entityID: v.optional(fields.entityID),
  certificate: v.optional(fields.certificate),
  ssoURL: v.optional(fields.ssoURL),
  defaultTeam: v.optional(v.nullable(fields.defaultTeam)),
  defaultRole: v.optional(fields.defaultRole),
});
