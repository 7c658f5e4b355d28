import fc from 'fast-check';
import { MAX_BODY_DEPTH, MAX_BODY_VALUES } from '../../../shared/http/json-structure.ts';

/**
 * fast-check arbitraries of hostile input. Each "refused" arbitrary only makes input the
 * service must refuse whatever the operation: a path value outside every parameter's
 * alphabet or length, a body that breaks a structural rule, a media type that is not JSON.
 */

/** A path segment value (raw, as sent) that no parameter rule accepts. */
export const hostilePathValue: fc.Arbitrary<string> = fc.oneof(
  // Longer than any parameter (ids 100, domains 253, page paths 2,000).
  fc.integer({ min: 2001, max: 3500 }).map((n) => 'a'.repeat(n)),
  // Characters outside every alphabet, percent-encoded as a client would send them.
  fc.tuple(
    fc.string({ maxLength: 20 }),
    fc.constantFrom('\u0000', ' ', '%', '/', '?', '#', '<', '"', "'", '\\', '\u00e9', '\u202e', '\ud83d\ude00', '\u0085', '\ufeff', '*', '$', ';', ','),
    fc.string({ maxLength: 20 }),
  ).map(([a, bad, b]) => encodeURIComponent(a + bad + b)),
  // Traversal inside one segment, and a double-encoded one.
  fc.constantFrom('..%2F..%2Fetc%2Fpasswd', 'a%2F..%2Fb', '%252e%252e', '%25', '%2500'),
  // Malformed percent-encoding, sent raw.
  fc.constantFrom('%', '%zz', '%E0%A4%A', 'abc%', '%%', '%u0041', '%C0%AF', '%ED%A0%80', '%FF'),
);

/** Hostile strings for bodies and queries. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '\u0000', '<script>alert(1)</script>', 'javascript:alert(1)', '../../etc/passwd', '${7*7}', '{{7*7}}',
    "' OR '1'='1", '%zz', '\ud800', 'constructor', '__proto__', 'NaN', '-1', '1e309'),
  fc.integer({ min: 5_000, max: 200_000 }).map((n) => 'x'.repeat(n)),
);

/** A JSON value with hostile leaves, arrays up to 5,000 items, and prototype-looking keys. */
export const hostileJsonValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
    fc.integer({ min: 1000, max: 5000 }).map((n) => Array.from({ length: n }, (_, i) => i)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('constructor', 'prototype', 'toString', 'title', 'id')), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** JSON text nested `depth` levels (built as text: JSON.stringify recurses). */
const nested = (depth: number, asArray: boolean): string => (asArray ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);

/** Raw body text plus Content-Type that every write operation must refuse (400, 413 or 415). */
export const refusedBody: fc.Arbitrary<{ what: string; text: string; contentType: string }> = fc.oneof(
  // Not an object.
  fc.constantFrom('[]', '[{}]', '"text"', '42', 'null', 'true', '[{"title":"x"}]').map((text) => ({ what: 'not an object', text, contentType: 'application/json' })),
  // Not JSON.
  fc.constantFrom('{', '{"a":}', "{'a':1}", '{"a":1}}', 'NaN', '\u0000', '{"a":"\\x"}').map((text) => ({ what: 'not JSON', text, contentType: 'application/json' })),
  // Nested beyond the limit (objects or arrays; up to 50,000 levels).
  fc.tuple(fc.integer({ min: MAX_BODY_DEPTH, max: 50_000 }), fc.boolean()).map(([depth, asArray]) => ({
    what: `nested ${depth + 1} levels`, text: `{"title":${nested(depth, asArray)}}`, contentType: 'application/json',
  })),
  // Too many values.
  fc.constant({ what: 'too many values', text: JSON.stringify({ items: Array.from({ length: MAX_BODY_VALUES + 1 }, () => 0) }), contentType: 'application/json' }),
  // Prototype keys, at the top or deeper.
  fc.constantFrom('{"__proto__":{"admin":true}}', '{"title":"x","a":{"__proto__":{"polluted":1}}}', '{"a":[{"__proto__":null}]}')
    .map((text) => ({ what: '__proto__ key', text, contentType: 'application/json' })),
  // JSON sent with a media type that is not JSON (or not UTF-8).
  fc.tuple(
    fc.constantFrom('application/json-patch', 'application/jsonx', 'text/json', 'text/plain', 'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x', 'application/json; charset=utf-16', 'application/+json', 'json', 'application/xml', ''),
    fc.constantFrom('{}', '{"title":"x"}'),
  ).map(([contentType, text]) => ({ what: `Content-Type ${contentType || '(none)'}`, text, contentType })),
);

/** Junk `limit` and `page` values, forged cursors included. */
export const hostileQuery: fc.Arbitrary<Record<string, string>> = fc.record({
  limit: fc.oneof(fc.constantFrom('0', '-1', '1001', '1e3', ' 5', '5.5', 'abc', '', '99999999999999999999', '0x10'), hostileString.filter((s) => s.length < 3000)),
  page: fc.oneof(
    fc.constantFrom('', 'x', 'eyJwayI6Ik9SRyN4In0', 'eyJwayI6Ik9SRyN4In0.AAAA', `${'A'.repeat(60)}.${'B'.repeat(43)}`, 'a'.repeat(5000), '..', '%zz'),
    fc.base64String({ maxLength: 200 }),
  ),
}, { requiredKeys: ['page'] });
