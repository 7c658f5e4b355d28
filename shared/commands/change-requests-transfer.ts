import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { config } from '../config.ts';
import { queryAll } from '../db/operations.ts';
import { changeRequestEntity } from '../db/entities/change-request.ts';

/**
 * After a space moves to another organization, its change requests follow: their `orgId`
 * and their entry in the organization's change request list (gsi1) are rewritten.
 */
export async function moveChangeRequestsToOrganization(spaceId: string, orgId: string): Promise<void> {
  const records = await queryAll({ index: 'gsi2', partition: `SPACE#${spaceId}#CHANGE_REQUESTS` });
  for (const record of records) {
    const cr = changeRequestEntity.fromRecord(record);
    const { set } = changeRequestEntity.indexAttributes({ ...cr, orgId });
    await db().send(new UpdateCommand({
      TableName: config.tableName,
      Key: changeRequestEntity.key({ spaceId, changeRequestId: cr.id }),
      UpdateExpression: 'SET orgId = :org, gsi1pk = :gsi1pk, gsi1sk = :gsi1sk',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':org': orgId, ':gsi1pk': set.gsi1pk, ':gsi1sk': set.gsi1sk },
    }));
  }
}
