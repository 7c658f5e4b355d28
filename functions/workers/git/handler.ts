import { createQueueHandler } from '../../../shared/jobs/queue-handler.ts';
import { runGitSync } from '../../../shared/git/sync.ts';

/**
 * Consumer of the `git` queue: Git import and export (shared/git/sync.ts). A failed job is
 * recorded in the space's Git info and reported as a batch item failure, so SQS retries it
 * and, after maxReceiveCount, moves it to the queue's DLQ.
 */
export const handler = createQueueHandler('git', {
  'git-sync': runGitSync,
});
