import { Aws, Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm, ComparisonOperator, Dashboard, GraphWidget, MathExpression, Metric, TextWidget, TreatMissingData, type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRICS_NAMESPACE } from '../../shared/observability/service.ts';
import { METRIC } from '../../shared/observability/metrics.ts';

/** Thresholds of the alarms (README "Operations" says what to do when each fires). */
export const ALARM_THRESHOLDS = {
  /** Percent of API requests answered 5xx, over two 5-minute periods in a row. */
  api5xxPercent: 1,
  /** API Gateway p99 latency in ms, over three 5-minute periods in a row (the integration limit is 30 s). */
  apiP99LatencyMs: 5_000,
  /**
   * Age in seconds of the oldest message of a work queue: its consumer (capped by its maximum
   * concurrency) has fallen an hour behind, or stopped taking messages; failures alone reach the DLQ alarms.
   */
  queueAgeSeconds: 60 * 60,
  /** Age of the oldest unprocessed stream record of the space-expiry worker, in ms (the stream keeps 24 h). */
  streamIteratorAgeMs: 60 * 60 * 1000,
} as const;

const FIVE_MINUTES = Duration.minutes(5);

export interface DocsMonitoringProps {
  httpApi: HttpApi;
  table: ITable;
  /** Every function of the service, by a readable name (`group spaces`, `worker git`, ...). */
  functions: Record<string, IFunction>;
  /** Every dead-letter queue, by name; one message in any is an alarm. */
  deadLetterQueues: Record<string, IQueue>;
  /** Work queues, by name: the age of their oldest message is watched, and graphed with their depth. */
  queues: Record<string, IQueue>;
  /** The table-stream consumer, whose iterator age is watched. */
  streamConsumer: IFunction;
}

/**
 * Alarms and a dashboard for the whole service. Every alarm notifies one SNS topic (the
 * `AlarmTopicArn` output: subscribe an email, a chat webhook or an incident tool to it), when
 * it fires and when it recovers. Missing data is "not breaching": an idle service is healthy.
 */
export class DocsMonitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: DocsMonitoringProps) {
    super(scope, id);
    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'docs-service alarms', enforceSSL: true });
    // The topic policy that enforceSSL attaches replaces SNS's default one, whose account-wide
    // allow is what lets CloudWatch publish alarm notifications: without this statement every
    // alarm would change state but fail its action ("no resource-based policy allows the
    // SNS:Publish action"). Only alarms of this account and region may publish.
    this.topic.addToResourcePolicy(new PolicyStatement({
      sid: 'AllowCloudWatchAlarmsToPublish',
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      actions: ['sns:Publish'],
      resources: [this.topic.topicArn],
      conditions: {
        StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
        ArnLike: { 'aws:SourceArn': `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:*` },
      },
    }));
    const action = new SnsAction(this.topic);
    const alarm = (alarmId: string, metric: IMetric, threshold: number, description: string, evaluationPeriods = 1) => {
      const created = new Alarm(this, alarmId, {
        metric,
        threshold,
        evaluationPeriods,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
        alarmDescription: `${description} (README: Operations)`,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      alarm(`DeadLetters-${name}`, queue.metricApproximateNumberOfMessagesVisible({ statistic: 'Maximum', period: FIVE_MINUTES }), 1,
        `A message reached the dead-letter queue ${name}: a job failed on every attempt`);
    }
    for (const [name, queue] of Object.entries(props.queues)) {
      alarm(`QueueAge-${name}`, queue.metricApproximateAgeOfOldestMessage({ statistic: 'Maximum', period: FIVE_MINUTES }), ALARM_THRESHOLDS.queueAgeSeconds,
        `The oldest message of the queue ${name} has waited more than ${ALARM_THRESHOLDS.queueAgeSeconds / 60} minutes: its worker is behind or stopped`);
    }
    for (const [name, fn] of Object.entries(props.functions)) {
      alarm(`Errors-${name}`, fn.metricErrors({ statistic: 'Sum', period: FIVE_MINUTES }), 1, `Function ${name} failed (uncaught error or timeout)`);
      alarm(`Throttles-${name}`, fn.metricThrottles({ statistic: 'Sum', period: FIVE_MINUTES }), 1, `Function ${name} was throttled (concurrency exhausted)`);
    }
    const api5xxRate = new MathExpression({
      expression: 'IF(FILL(requests, 0) > 0, 100 * FILL(errors, 0) / requests, 0)',
      usingMetrics: {
        requests: props.httpApi.metricCount({ statistic: 'Sum', period: FIVE_MINUTES }),
        errors: props.httpApi.metricServerError({ statistic: 'Sum', period: FIVE_MINUTES }),
      },
      label: 'API 5xx %',
      period: FIVE_MINUTES,
    });
    alarm('Api5xxRate', api5xxRate, ALARM_THRESHOLDS.api5xxPercent, `More than ${ALARM_THRESHOLDS.api5xxPercent}% of API requests answered 5xx`, 2);
    const apiP99 = props.httpApi.metricLatency({ statistic: 'p99', period: FIVE_MINUTES });
    alarm('ApiLatencyP99', apiP99, ALARM_THRESHOLDS.apiP99LatencyMs, `API p99 latency above ${ALARM_THRESHOLDS.apiP99LatencyMs} ms`, 3);
    const tableThrottles = new MathExpression({
      expression: 'FILL(reads, 0) + FILL(writes, 0)',
      usingMetrics: {
        reads: props.table.metric('ReadThrottleEvents', { statistic: 'Sum', period: FIVE_MINUTES }),
        writes: props.table.metric('WriteThrottleEvents', { statistic: 'Sum', period: FIVE_MINUTES }),
      },
      label: 'DynamoDB throttle events',
      period: FIVE_MINUTES,
    });
    alarm('TableThrottles', tableThrottles, 1, 'DynamoDB throttled reads or writes of the table');
    const iteratorAge = props.streamConsumer.metric('IteratorAge', { statistic: 'Maximum', period: FIVE_MINUTES });
    alarm('StreamIteratorAge', iteratorAge, ALARM_THRESHOLDS.streamIteratorAgeMs, 'The space-expiry worker is behind on the table stream');

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(3) });
    const fns = Object.entries(props.functions);
    const search = (schema: string, metric: string, statistic: string, label: string) => new MathExpression({
      expression: `SEARCH('{${METRICS_NAMESPACE},${schema}} MetricName="${metric}"', '${statistic}', 300)`,
      label,
      period: FIVE_MINUTES,
    });
    this.dashboard.addWidgets(
      new TextWidget({ markdown: '# docs-service\nAlarms notify the SNS topic of the `AlarmTopicArn` output; README "Operations" says what to do.', width: 24, height: 2 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'API requests and errors', left: [props.httpApi.metricCount({ period: FIVE_MINUTES }), props.httpApi.metricClientError({ period: FIVE_MINUTES }), props.httpApi.metricServerError({ period: FIVE_MINUTES })], width: 8 }),
      new GraphWidget({ title: 'API 5xx %', left: [api5xxRate], width: 8 }),
      new GraphWidget({ title: 'API latency', left: [props.httpApi.metricLatency({ statistic: 'p50', period: FIVE_MINUTES }), apiP99], width: 8 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Requests by group and status class', left: [search('group,service,statusClass', METRIC.requests, 'Sum', '')], width: 12 }),
      new GraphWidget({ title: 'Request duration by group (p99)', left: [search('group,service', METRIC.requestDuration, 'p99', '')], width: 12 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Lambda errors', left: fns.map(([name, fn]) => fn.metricErrors({ label: name, period: FIVE_MINUTES })), width: 8 }),
      new GraphWidget({ title: 'Lambda throttles', left: fns.map(([name, fn]) => fn.metricThrottles({ label: name, period: FIVE_MINUTES })), width: 8 }),
      new GraphWidget({ title: 'Lambda duration (p99)', left: fns.map(([name, fn]) => fn.metricDuration({ label: name, statistic: 'p99', period: FIVE_MINUTES })), width: 8 }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'Jobs by queue and outcome', left: [search('outcome,queue,service', METRIC.jobs, 'Sum', '')], width: 8 }),
      new GraphWidget({ title: 'Job duration and queue lag (p99)', left: [search('queue,service', METRIC.jobDuration, 'p99', ''), search('queue,service', METRIC.queueLag, 'p99', '')], width: 8 }),
      new GraphWidget({
        title: 'Queue depth, oldest message age, dead letters',
        left: Object.entries(props.queues).map(([name, q]) => q.metricApproximateNumberOfMessagesVisible({ label: name, period: FIVE_MINUTES })),
        right: Object.entries(props.queues).map(([name, q]) => q.metricApproximateAgeOfOldestMessage({ label: `${name} age`, period: FIVE_MINUTES }))
          .concat(Object.entries(props.deadLetterQueues).map(([name, q]) => q.metricApproximateNumberOfMessagesVisible({ label: `${name} DLQ`, period: FIVE_MINUTES }) as Metric)),
        width: 8,
      }),
    );
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'DynamoDB capacity', left: [props.table.metricConsumedReadCapacityUnits({ period: FIVE_MINUTES }), props.table.metricConsumedWriteCapacityUnits({ period: FIVE_MINUTES })], width: 8 }),
      new GraphWidget({ title: 'DynamoDB throttles', left: [tableThrottles], width: 8 }),
      new GraphWidget({ title: 'Stream iterator age (space expiry)', left: [iteratorAge], width: 8 }),
    );
  }
}
