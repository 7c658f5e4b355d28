import { config } from '../config.ts';
import { spaceEntity } from '../db/entities/space.ts';
import type { TransactItem } from '../db/operations.ts';

/**
 * The write that makes `to` a space's primary revision, for a transaction beside the
 * revision record. Conditional on the space still being live and on its primary revision
 * still being `from` (none when undefined), so a concurrent merge, import or template is
 * never overwritten; `unlockedOnly` also refuses locked spaces. `updatedAt` moves too, so a
 * concurrent whole-record space update fails rather than writing the old pointer back.
 */
export function movePrimaryRevision(input: {
  spaceId: string;
  from: string | undefined;
  to: string;
  now: string;
  unlockedOnly?: boolean;
  /** Further attributes to set (e.g. gitSync). */
  set?: Record<string, unknown>;
  /** Counters to change (e.g. changeRequestsOpen: -1). */
  add?: Record<string, number>;
}): TransactItem {
  const names: Record<string, string> = { '#revision': 'revision', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':to': input.to, ':now': input.now };
  const sets = ['#revision = :to', '#updatedAt = :now'];
  for (const [i, [name, value]] of Object.entries(input.set ?? {}).entries()) {
    names[`#s${i}`] = name;
    values[`:s${i}`] = value;
    sets.push(`#s${i} = :s${i}`);
  }
  const adds = Object.entries(input.add ?? {}).map(([name, delta], i) => {
    names[`#a${i}`] = name;
    values[`:a${i}`] = delta;
    return `#a${i} :a${i}`;
  });
  const conditions = ['attribute_exists(pk)', 'attribute_not_exists(deletedAt)'];
  if (input.from) {
    conditions.push('#revision = :from');
    values[':from'] = input.from;
  } else {
    conditions.push('attribute_not_exists(#revision)');
  }
  if (input.unlockedOnly) {
    names['#editMode'] = 'editMode';
    values[':locked'] = 'locked';
    conditions.push('#editMode <> :locked');
  }
  return {
    Update: {
      TableName: config.tableName,
      Key: spaceEntity.key({ spaceId: input.spaceId }),
      UpdateExpression: `SET ${sets.join(', ')}${adds.length ? ` ADD ${adds.join(', ')}` : ''}`,
      ConditionExpression: conditions.join(' AND '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    },
  };
}
