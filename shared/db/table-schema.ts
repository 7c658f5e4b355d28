import { indexes, PK, SK, TTL_ATTRIBUTE } from './table.ts';

/** The table's key schema, shared by the CDK stack and local provisioning. */
export const tableSchema = {
  partitionKey: PK,
  sortKey: SK,
  ttlAttribute: TTL_ATTRIBUTE,
  globalIndexes: Object.values(indexes).map((i) => ({ indexName: i.name, partitionKey: i.pk, sortKey: i.sk })),
};
