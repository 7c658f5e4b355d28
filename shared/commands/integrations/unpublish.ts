import { run } from '../../db/writes.ts';
import { installationEntity, installationLockEntity, integrationEntity, integrationEventEntity } from '../../db/entities/integration.ts';
import { eventKey } from '../../integrations/events.ts';

/** Removes the integration with its installations and events. False when there was none. */
export async function unpublishIntegration(name: string): Promise<boolean> {
  const deleted = await run(integrationEntity.delete({ name }));
  const [installations, events] = await Promise.all([
    installationEntity.query.ofIntegration({ name }).all(),
    integrationEventEntity.query.ofIntegration({ name }).all(),
  ]);
  const writes = [
    ...installations.flatMap((i) => [installationEntity.delete({ name, installationId: i.id }), installationLockEntity.delete({ name, orgId: i.orgId })]),
    ...events.map((e) => integrationEventEntity.delete(eventKey(e))),
  ];
  for (let i = 0; i < writes.length; i += 20) await Promise.all(writes.slice(i, i + 20).map((w) => run<unknown>(w)));
  return deleted !== undefined;
}
