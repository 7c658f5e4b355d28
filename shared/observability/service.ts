/** The service name on every log line, trace and metric (POWERTOOLS_SERVICE_NAME overrides it). */
export const SERVICE_NAME = process.env.POWERTOOLS_SERVICE_NAME ?? 'docs-service';

/** CloudWatch namespace of the service's own metrics (the alarms and dashboard read it). */
export const METRICS_NAMESPACE = 'DocsService';
