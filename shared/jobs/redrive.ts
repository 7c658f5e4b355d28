/**
 * Receives of a queued job before SQS moves it to its queue's dead-letter queue: the redrive
 * policy of every work queue (infra/constructs/queues.ts, and the local emulator's in
 * shared/local/provision.ts), and so the attempts a worker counts before it gives up for good
 * (Git syncs, integration event deliveries).
 */
export const MAX_RECEIVE_COUNT = 3;
