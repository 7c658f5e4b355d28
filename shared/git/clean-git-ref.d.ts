/** clean-git-ref (the package ships no types): git's ref-name rules, as isomorphic-git applies them. */
declare module 'clean-git-ref' {
  /** `value` made a valid ref name: equal to `value` when it already is one. */
  export function clean(value: string): string;
}
