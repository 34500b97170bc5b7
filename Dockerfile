# The engine image: one image for every role (ROLE=api | worker | scheduler | all), the migration
# job and the CRM sandbox. Multi-stage: compilers and dev dependencies stay in the build stage;
# the runtime stage holds production dependencies and the built dist/ folders only (the engine's
# and the two workspace packages'), and runs as the unprivileged `node` user. docker-compose.yml
# shows how the roles are put together.

FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/crm-contract/package.json packages/crm-contract/
COPY packages/crm-sandbox/package.json packages/crm-sandbox/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json .swcrc nest-cli.json ./
COPY packages packages
COPY src src
COPY migrations migrations
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
# The workspace packages as node_modules/@crm-rules links to them: their package.json and their
# built dist/ (no sources, no specs). The engine loads the contract; it embeds the sandbox when no
# CRM is configured, and the compose file's `sandbox` service runs its dist/main.js.
COPY --from=build /app/packages/crm-contract/package.json packages/crm-contract/
COPY --from=build /app/packages/crm-contract/dist packages/crm-contract/dist
COPY --from=build /app/packages/crm-sandbox/package.json packages/crm-sandbox/
COPY --from=build /app/packages/crm-sandbox/dist packages/crm-sandbox/dist
COPY bin bin
# No rules in the image (issue 31): the engine follows RULES_GIT_URL, or reads a RULES_DIR mounted
# as a volume or a Kubernetes ConfigMap. Example rules baked in would run against a real CRM.
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Heap settings of the engine (docs/BENCHMARKS.md, Memory). Not a cap on what the engine needs
# (its live heap is ~50 MB with 500 rules; 512 MB is 10x that): below V8's 2 GB default limit, V8
# grows the old generation by a factor of ~1.4 after each full GC instead of 4, so garbage (a
# 100k-contact mirror sync reads ~1 GB of pages) is collected before the heap balloons to 250 MB.
# A smaller young generation (8 MB semi-spaces, default 16) takes another ~20 MB off the RSS.
# Only the engine gets them: the toolchain CLI (bin/) may need more for a large contacts file.
CMD ["node", "--max-old-space-size=512", "--max-semi-space-size=8", "dist/src/main.js"]
