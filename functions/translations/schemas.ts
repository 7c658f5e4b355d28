import * as v from 'valibot';
import { id } from '../../shared/http/schemas.ts';

/**
 * Path parameters of the `translations` group. Its operations answer 501 until their issue lands;
 * request schemas join these then, as in every other group.
 */
export const pathParams = v.partial(v.object({
  organizationId: id,
  translationId: id,
}));
