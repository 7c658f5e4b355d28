import * as v from 'valibot';
export { spaceParams } from '../../shared/http/schemas.ts';
import { egressUrl } from '../../shared/net/url-schema.ts';
import { gitSyncProviders } from '../../shared/presenters/schemas/git-info.ts';
import { isBranchRef } from '../../shared/git/ref-name.ts';
import { maxChars } from '../../shared/http/string-length.ts';

/** A public http(s) URL (shared/net: checked again when the worker connects), possibly with basic-auth credentials. */
const repoUrl = egressUrl;

const ref = v.pipe(
  v.string('must be a string'),
  v.regex(/^refs\/heads\/.+$/, 'must be of the form refs/heads/<branch>'),
  v.maxLength(250, 'must be at most 250 characters'),
  v.check(isBranchRef, 'must be a valid git branch name (no "..", spaces, ~ ^ : ? * [ \\, @{, or a component starting with ".")'),
);
/**
 * Timestamps order operations by comparing them as strings (the worker, and DynamoDB's
 * condition): each is kept in one form, UTC with milliseconds (`+02:00` offsets and seconds
 * without fractions otherwise compare out of order).
 */
const dateTime = v.pipe(v.string('must be a string'), v.isoTimestamp('must be an ISO 8601 date-time'), v.transform((t) => new Date(t).toISOString()));
const optionalText = v.optional(v.pipe(v.string('must be a string'), v.maxLength(2048, 'must be at most 2048 characters')));

const common = {
  url: v.optional(repoUrl),
  ref: v.optional(ref),
  repoCacheID: optionalText,
  repoTreeURL: optionalText,
  repoCommitURL: optionalText,
  repoProjectDirectory: v.optional(v.pipe(v.string('must be a string'), v.maxLength(500, 'must be at most 500 characters'))),
  timestamp: v.optional(dateTime),
  force: v.optional(v.boolean('must be a boolean')),
  gitInfo: v.optional(v.object({ provider: v.optional(v.picklist(gitSyncProviders.filter((p) => p !== 'github-legacy'), 'must be github or gitlab')), url: v.optional(repoUrl) })),
};

export const importBody = v.pipe(
  v.object({ ...common, standalone: v.optional(v.boolean('must be a boolean')) }),
  v.forward(v.check((body) => body.url !== undefined, 'is required'), ['url']),
  v.forward(v.check((body) => body.ref !== undefined, 'is required'), ['ref']),
);

export const exportBody = v.pipe(
  v.object({
    ...common,
    commitMessage: v.optional(v.pipe(v.string('must be a string'), maxChars(5000)), ''),
  }),
  v.forward(v.check((body) => body.url !== undefined, 'is required'), ['url']),
  v.forward(v.check((body) => body.ref !== undefined, 'is required'), ['ref']),
  v.forward(v.check((body) => body.commitMessage.trim() !== '', 'is required'), ['commitMessage']),
);
