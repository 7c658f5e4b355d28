import { ApiError } from '../http/errors.ts';

/** A SAML response that fails verification: 401, the reason named after the form field. */
export const refused = (reason: string) => new ApiError(401, `SAMLResponse: ${reason}`);
