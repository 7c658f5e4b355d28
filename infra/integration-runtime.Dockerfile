# The integration runtime Lambda (infra/constructs/integration-runtime.ts): Node 24 with
# workerd (npm `miniflare`, whose `workerd` dependency brings the binary of this platform).
FROM public.ecr.aws/lambda/nodejs:24 AS build
WORKDIR /build
COPY package.json package-lock.json tsconfig.json ./
# Install scripts stay off: workerd's binary comes in its platform package, nothing to download.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY shared shared
COPY functions functions
RUN npx esbuild functions/integration-runtime/handler.ts --bundle --platform=node --target=node24 --format=esm \
      --minify --sourcemap --external:miniflare --outfile=dist/index.mjs \
      --banner:js="import { createRequire } from 'module'; const require = createRequire(import.meta.url);" \
 && npm prune --omit=dev --ignore-scripts

FROM public.ecr.aws/lambda/nodejs:24
COPY --from=build /build/dist/ ${LAMBDA_TASK_ROOT}/
COPY --from=build /build/node_modules/ ${LAMBDA_TASK_ROOT}/node_modules/
ENV NODE_OPTIONS=--enable-source-maps
CMD ["index.handler"]
