/** clean-git-ref (the package ships no types; CommonJS, one object): git's ref-name rules, as isomorphic-git applies them. */
declare module 'clean-git-ref' {
  const cleanGitRef: {
    /** `value` made a valid ref name: equal to `value` when it already is one. */
    clean(value: string): string;
  };
  export default cleanGitRef;
}
