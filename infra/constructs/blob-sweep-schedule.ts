import { Duration } from 'aws-cdk-lib';
import { Rule, RuleTargetInput, Schedule } from 'aws-cdk-lib/aws-events';
import { SqsQueue } from 'aws-cdk-lib/aws-events-targets';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { Job } from '../../shared/jobs/jobs.ts';

/** The message the schedule sends: the same job `npm run admin -- blobs sweep` runs. */
export const BLOB_SWEEP_JOB = { kind: 'blob-sweep' } as const satisfies Job;

/**
 * Daily mark-and-sweep of unreferenced blobs (shared/content/blob-sweep.ts): an EventBridge
 * rule that puts the job on the jobs queue, where the jobs worker runs it like any other job
 * (retries, DLQ and alarms included). The queue policy lets only this rule send.
 */
export class BlobSweepSchedule extends Construct {
  readonly rule: Rule;

  constructor(scope: Construct, id: string, props: { jobsQueue: IQueue }) {
    super(scope, id);
    this.rule = new Rule(this, 'Rule', {
      description: 'docs-service daily blob sweep (blob-sweep job on the jobs queue)',
      schedule: Schedule.rate(Duration.days(1)),
      targets: [new SqsQueue(props.jobsQueue, { message: RuleTargetInput.fromObject(BLOB_SWEEP_JOB) })],
    });
  }
}
