import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, SERVICE_NAME } from './service.ts';

/**
 * CloudWatch metrics as EMF lines on stdout. Written only inside Lambda (where CloudWatch
 * turns them into metrics) unless POWERTOOLS_METRICS_DISABLED says otherwise: locally they
 * would only be noise between the log lines.
 */
if (!process.env.AWS_LAMBDA_FUNCTION_NAME) process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });

/** Metric names (infra/constructs/monitoring.ts alarms on and graphs them). */
export const METRIC = {
  requests: 'Requests',
  requestDuration: 'RequestDuration',
  jobs: 'Jobs',
  jobDuration: 'JobDuration',
  queueLag: 'QueueLag',
} as const;

/** `503` -> `5xx`: few dimension values, one series per class. */
export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** One data point with its own dimensions, written at once (a singleMetric flushes on add). */
function emit(dimensions: Record<string, string>, name: string, unit: Parameters<Metrics["addMetric"]>[1], value: number): void {
  // Disabled (outside Lambda): nothing would be written, and each singleMetric() builds a
  // Metrics instance and a Console (issue 17: as much CPU per request as authentication).
  if (process.env.POWERTOOLS_METRICS_DISABLED === 'true') return;
  const metric = metrics.singleMetric();
  metric.addDimensions(dimensions);
  metric.addMetric(name, unit, value);
}

/** One request answered: counted by group and status class, timed by group. */
export function recordRequest(group: string, status: number, durationMs: number): void {
  emit({ group, statusClass: statusClass(status) }, METRIC.requests, MetricUnit.Count, 1);
  emit({ group }, METRIC.requestDuration, MetricUnit.Milliseconds, durationMs);
}

/** One queued job done: outcome, duration and how long it waited in the queue. */
export function recordJob(queue: string, outcome: 'succeeded' | 'failed', durationMs: number, lagMs: number | undefined): void {
  emit({ queue, outcome }, METRIC.jobs, MetricUnit.Count, 1);
  emit({ queue }, METRIC.jobDuration, MetricUnit.Milliseconds, durationMs);
  if (lagMs !== undefined) emit({ queue }, METRIC.queueLag, MetricUnit.Milliseconds, lagMs);
}
