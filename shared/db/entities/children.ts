/** gsi2 partition holding the ordered children (spaces and collections) of a parent. */
export function childrenPartition(orgId: string, parent: string | undefined | null): string {
  return `ORG#${orgId}#CHILDREN#${parent ?? 'ROOT'}`;
}
