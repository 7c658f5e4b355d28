/**
 * A request-body URL the service will fetch later: http(s), at most 2048 characters, and
 * not a literal non-public address or `localhost` name (an immediate 400 naming the
 * field). Names are resolved and checked again when the fetch happens.
 */
import * as v from 'valibot';
import { checkEgressUrlSyntax } from './destination.ts';
import { isEgressError } from './egress-error.ts';

function egressIssue(value: string): string | undefined {
  try {
    checkEgressUrlSyntax(value, 'url');
    return undefined;
  } catch (error) {
    if (isEgressError(error)) return error.reason;
    throw error;
  }
}

export const egressUrl = v.pipe(
  v.string('must be a string'),
  v.maxLength(2048, 'must be at most 2048 characters'),
  v.url('must be a URL'),
  v.check((value) => egressIssue(value) === undefined, (issue) => egressIssue(String(issue.input)) ?? 'must be a public http(s) URL'),
);
