import * as v from 'valibot';
import { timestampSchema } from './common.ts';

/**
 * Integration event (spec 2.13). `status` is `pending` until the worker dispatched it (an
 * exception to the public description, which knows only `success` and `failed`).
 */
export const integrationEventSchema = v.object({
  id: v.string(),
  integrationId: v.string(),
  installationId: v.string(),
  createdAt: timestampSchema,
  payload: v.looseObject({ eventId: v.optional(v.string()), type: v.string() }),
  status: v.picklist(['pending', 'success', 'failed']),
});
export type IntegrationEventOutput = v.InferOutput<typeof integrationEventSchema>;

/** GET .../events/{eventId}: the event and its delivery log. */
export const integrationEventDetailSchema = v.object({
  event: integrationEventSchema,
  trace: v.object({ logs: v.array(v.object({ message: v.string(), timestamp: timestampSchema, level: v.picklist(['debug', 'info', 'warn', 'error']) })) }),
});
