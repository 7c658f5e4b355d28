import { createHmac, timingSafeEqual } from 'node:crypto';

/** Header carrying `sha256=<hex HMAC-SHA256 of the raw body, keyed by the integration's signing secret>`. */
export const SIGNATURE_HEADER = 'x-dps-signature';

export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

export function verifySignature(body: string, secret: string, header: string | undefined | null): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(body, secret));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
