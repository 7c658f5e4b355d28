import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '../db/client.ts';
import { config } from '../config.ts';
import { nowIso } from '../clock.ts';
import { randomId } from '../ids.ts';
import { samlProviderEntity, type SAMLProviderItem } from '../db/entities/saml-provider.ts';
import { notFound } from '../http/errors.ts';

export type ProviderFields = Pick<SAMLProviderItem, 'label' | 'entityID' | 'certificate' | 'ssoURL' | 'defaultTeam' | 'defaultRole'>;

export async function createSAMLProvider(orgId: string, fields: ProviderFields): Promise<SAMLProviderItem> {
  const now = nowIso();
  const provider: SAMLProviderItem = {
    id: randomId(), orgId, label: fields.label, entityID: fields.entityID, certificate: fields.certificate, ssoURL: fields.ssoURL,
    ...(fields.defaultTeam !== undefined ? { defaultTeam: fields.defaultTeam } : {}),
    defaultRole: fields.defaultRole, createdAt: now, updatedAt: now,
  };
  await db().send(new PutCommand({
    TableName: config.tableName,
    Item: samlProviderEntity.toRecord({ orgId, providerId: provider.id }, provider),
    ConditionExpression: 'attribute_not_exists(pk)',
  }));
  return provider;
}

/** Sets the given fields (defaultTeam null removes it); 404 when the provider is absent. */
export async function updateSAMLProvider(
  orgId: string, providerId: string, changes: Partial<Omit<ProviderFields, 'defaultTeam'>> & { defaultTeam?: string | null },
): Promise<SAMLProviderItem> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':now': nowIso() };
  const sets = ['updatedAt = :now'];
  const removes: string[] = [];
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    names[`#${field}`] = field;
    if (field === 'defaultTeam' && value === null) {
      removes.push(`#${field}`);
    } else {
      sets.push(`#${field} = :${field}`);
      values[`:${field}`] = value;
    }
  }
  try {
    const out = await db().send(new UpdateCommand({
      TableName: config.tableName,
      Key: samlProviderEntity.key({ orgId, providerId }),
      UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      ConditionExpression: 'attribute_exists(pk)',
      ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    }));
    return samlProviderEntity.fromRecord(out.Attributes!);
  } catch (error) {
    if ((error as Error)?.name === 'ConditionalCheckFailedException') throw notFound(`No SAML provider found with id ${providerId}`);
    throw error;
  }
}

/** Returns whether there was a provider to delete. */
export async function deleteSAMLProvider(orgId: string, providerId: string): Promise<boolean> {
  const out = await db().send(new DeleteCommand({
    TableName: config.tableName, Key: samlProviderEntity.key({ orgId, providerId }), ReturnValues: 'ALL_OLD',
  }));
  return out.Attributes !== undefined;
}
