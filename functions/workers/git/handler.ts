import type { Context, SQSEvent } from 'aws-lambda';
import { createQueueHandler } from '../../../shared/jobs/queue-handler.ts';
import { runGitSync } from '../../../shared/git/sync.ts';
import { withDeadline } from '../../../shared/git/deadline.ts';

/**
 * Consumer of the `git` queue: Git import and export (shared/git/sync.ts). A failed job is
 * recorded in the space's Git info and reported as a batch item failure, so SQS retries it
 * and, after maxReceiveCount, moves it to the queue's DLQ. The invocation's remaining time
 * is visible to the job (shared/git/deadline.ts: a warning when it runs short).
 */
const consume = createQueueHandler('git', {
  'git-sync': runGitSync,
});

export const handler = (event: SQSEvent, context?: Context) => withDeadline(context, () => consume(event, context));
