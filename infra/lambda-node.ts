/**
 * The Node.js line of every Lambda: the zip functions' runtime (service-function.ts), the
 * container images' base (`public.ecr.aws/lambda/nodejs:<major>` in infra/*.Dockerfile) and
 * the target esbuild bundles for. The project runs its scripts and tests on the same line
 * (package.json's `node` devDependency). test/infra/stack.test.ts holds the Dockerfiles and
 * package.json to it, since neither can import this file.
 */
export const LAMBDA_NODE_MAJOR = 24;

/** esbuild's `target` for code that runs in the Lambdas. */
export const LAMBDA_ESBUILD_TARGET = `node${LAMBDA_NODE_MAJOR}`;

/** Node's options on every Lambda (NODE_OPTIONS): stack traces point at the sources. */
export const LAMBDA_NODE_OPTIONS = ['--enable-source-maps'];

/**
 * The git worker's own, after those: one V8 helper thread. The worker has one vCPU
 * (GIT_WORKER_MEMORY_MB, infra/constructs/workers.ts); V8's default four helpers split each
 * scavenge and marking cycle four ways on it. bench:git (which starts its worker with these
 * options, as the Lambda runs), three alternated pairs of quick runs: a new repository's
 * import 9-29% faster, a fresh worker's first 5-11%, the helpers' CPU per job ~470-530 ->
 * ~310-350 ms (issue 17, bench/README.md).
 */
export const GIT_WORKER_NODE_OPTIONS = ['--v8-pool-size=1'];
