import { forbidden } from '../http/errors.ts';

/** Throws 403 with the reason when the caller may not do what it asked. */
export function authorize(allowed: boolean, reason: string): asserts allowed {
  if (!allowed) throw forbidden(reason);
}
