import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { sqs } from '../aws/clients.ts';
import { config, queueUrlVariable } from '../config.ts';
import { queueOfJob, type Job } from './jobs.ts';

/** Sends a job to its queue. */
export async function enqueue(job: Job): Promise<void> {
  const queue = queueOfJob[job.kind];
  const url = config.queueUrl(queue);
  if (!url) throw new Error(`${queueUrlVariable(queue)} is not set`);
  await sqs().send(new SendMessageCommand({ QueueUrl: url, MessageBody: JSON.stringify(job) }));
}
