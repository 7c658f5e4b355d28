/**
 * Adjusted Rand index of a clustering against reference labels (Hubert & Arabie 1985):
 * 1 for identical partitions, about 0 for a random one. A formula, so written here.
 */
export function adjustedRandIndex(labels: string[], clusters: number[]): number {
  const pairs = (n: number) => (n * (n - 1)) / 2;
  const table = new Map<string, number>();
  const rows = new Map<string, number>();
  const columns = new Map<number, number>();
  labels.forEach((label, i) => {
    const cluster = clusters[i]!;
    table.set(`${label}\u0000${cluster}`, (table.get(`${label}\u0000${cluster}`) ?? 0) + 1);
    rows.set(label, (rows.get(label) ?? 0) + 1);
    columns.set(cluster, (columns.get(cluster) ?? 0) + 1);
  });
  const index = [...table.values()].reduce((s, n) => s + pairs(n), 0);
  const a = [...rows.values()].reduce((s, n) => s + pairs(n), 0);
  const b = [...columns.values()].reduce((s, n) => s + pairs(n), 0);
  const expected = (a * b) / pairs(labels.length);
  const max = (a + b) / 2;
  return max === expected ? 1 : (index - expected) / (max - expected);
}
