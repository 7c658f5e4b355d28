/**
 * Export onto a branch that moved on since the space last synced with it: a three-way merge
 * of flat trees, file by file. `ours` is the space's content written on top of `base` (the
 * commit of the last sync), `theirs` the branch's head. A file only one side changed takes
 * that side's version (so an edit made in Git is not reverted by an export that did not
 * touch it); a file both changed differently is a conflict, and nothing is written.
 */
import type { FlatEntry } from './repo.ts';

export interface TreeMerge {
  tree: Map<string, FlatEntry>;
  /** Paths changed on both sides since the base, differently (sorted). */
  conflicts: string[];
}

const same = (a: FlatEntry | undefined, b: FlatEntry | undefined) => a?.oid === b?.oid && a?.mode === b?.mode;

export function mergeTrees(base: Map<string, FlatEntry>, ours: Map<string, FlatEntry>, theirs: Map<string, FlatEntry>): TreeMerge {
  const tree = new Map(theirs);
  const conflicts: string[] = [];
  for (const path of new Set([...base.keys(), ...ours.keys()])) {
    const [was, mine, now] = [base.get(path), ours.get(path), theirs.get(path)];
    if (same(was, mine) || same(mine, now)) continue;
    if (!same(was, now)) {
      conflicts.push(path);
      continue;
    }
    if (mine) tree.set(path, mine);
    else tree.delete(path);
  }
  return { tree, conflicts: conflicts.sort() };
}
