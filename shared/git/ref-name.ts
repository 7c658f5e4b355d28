/**
 * Whether `ref` names a branch git would accept (`refs/heads/<branch>`), checked when the
 * request arrives rather than by the worker's clone three attempts later. The rules are
 * git-check-ref-format's, through clean-git-ref (what isomorphic-git checks branch names
 * with): a name it would change is refused; so are control characters, `[` and empty
 * components, which it leaves alone.
 */
import cleanGitRef from 'clean-git-ref';

const BRANCH_PREFIX = 'refs/heads/';

export function isBranchRef(ref: string): boolean {
  if (!ref.startsWith(BRANCH_PREFIX) || ref.length === BRANCH_PREFIX.length) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f[]/.test(ref)) return false;
  if (ref.split('/').some((component) => component === '' || component.startsWith('.'))) return false;
  return cleanGitRef.clean(ref) === ref;
}
