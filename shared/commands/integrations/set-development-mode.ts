import { nowIso } from '../../clock.ts';
import { run } from '../../db/writes.ts';
import { integrationEntity, type IntegrationItem } from '../../db/entities/integration.ts';

export async function setDevelopmentMode(item: IntegrationItem, tunnelUrl: string, all: boolean): Promise<void> {
  await run(integrationEntity.put({ name: item.name }, { ...item, devTunnelUrl: tunnelUrl, devForwardAll: all, updatedAt: nowIso() }));
}
