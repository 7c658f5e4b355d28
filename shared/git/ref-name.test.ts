import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { isBranchRef } from './ref-name.ts';

/** Whether the git CLI itself accepts `ref` (the rules isBranchRef stands in for where git is not installed). */
function gitAccepts(ref: string): boolean {
  try {
    execFileSync('git', ['check-ref-format', ref], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('isBranchRef', () => {
  it('agrees with git check-ref-format on branch names good and bad', () => {
    const names = [
      'main', 'feature/x-1', 'v1.2', 'release/2026.11', 'ünïcode', '-dash', 'a_b', 'UPPER', 'a-b.c/d_e',
      '../../x', 'a b', 'a..b', 'a~1', 'a^', 'a:b', 'a?', 'a*', 'a[b', 'a\\b', 'a@{1}', 'a.', 'a/', 'a.lock',
      'a//b', '.hidden', 'x/.y', 'x\u0001', 'tab\there', 'del\u007f', '',
    ];
    for (const name of names) {
      const ref = `refs/heads/${name}`;
      expect(isBranchRef(ref), JSON.stringify(ref)).toBe(name !== '' && gitAccepts(ref));
    }
    expect(isBranchRef('refs/tags/v1')).toBe(false);
  });
});
