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
