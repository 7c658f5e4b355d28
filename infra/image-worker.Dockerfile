# The images worker Lambda (functions/workers/images/handler.ts, infra/constructs/workers.ts): Node 24 with sharp, whose
# libvips binary comes in npm's platform package for this image's platform (linux arm64).
FROM public.ecr.aws/lambda/nodejs:24 AS build
WORKDIR /build
COPY package.json package-lock.json tsconfig.json ./
# Install scripts stay off: sharp's binary and libvips come in their platform packages, nothing to download or build.
RUN npm ci --no-audit --no-fund --ignore-scripts
COPY shared shared
COPY functions functions
RUN npx esbuild functions/workers/images/handler.ts --bundle --platform=node --target=node24 --format=esm \
      --minify --sourcemap --external:sharp --outfile=dist/index.mjs \
      --banner:js="import { createRequire } from 'module'; const require = createRequire(import.meta.url);" \
 && node -e "require('sharp')" \
 && mkdir -p runtime/node_modules/@img \
 && cp -r node_modules/sharp node_modules/detect-libc node_modules/semver runtime/node_modules/ \
 && cp -r node_modules/@img/colour node_modules/@img/sharp-linux-arm64 node_modules/@img/sharp-libvips-linux-arm64 runtime/node_modules/@img/

# Only sharp and its dependencies stay beside the bundle (everything else is in it).
FROM public.ecr.aws/lambda/nodejs:24
COPY --from=build /build/dist/ ${LAMBDA_TASK_ROOT}/
COPY --from=build /build/runtime/node_modules/ ${LAMBDA_TASK_ROOT}/node_modules/
ENV NODE_OPTIONS=--enable-source-maps
CMD ["index.handler"]
