# The git worker Lambda (functions/workers/git/handler.ts, infra/constructs/workers.ts): Node 24
# with the git CLI, which clones repositories and reads their objects (shared/git/repo.ts).
FROM public.ecr.aws/lambda/nodejs:24 AS build
WORKDIR /build
COPY package.json package-lock.json tsconfig.json ./
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY shared shared
COPY functions functions
RUN npx esbuild functions/workers/git/handler.ts --bundle --platform=node --target=node24 --format=esm \
      --minify --sourcemap --outfile=dist/index.mjs \
      --banner:js="import { createRequire } from 'module'; const require = createRequire(import.meta.url);"

# Only the bundle and git (git-core: the CLI and its http transport, no Perl or docs).
FROM public.ecr.aws/lambda/nodejs:24
RUN dnf install -y git-core && dnf clean all && git --version
COPY --from=build /build/dist/ ${LAMBDA_TASK_ROOT}/
ENV NODE_OPTIONS="--enable-source-maps --v8-pool-size=1"
CMD ["index.handler"]
