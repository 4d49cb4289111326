# The SMS wallet service. Build: docker build -t sms-wallet .   (docker-compose.yml builds it too)

# --- build: full install (dev dependencies for tsc), compile, then drop dev dependencies ---
FROM node:20-bookworm-slim AS build
# better-sqlite3 (the embedded store, still a dependency) compiles from source when no
# prebuilt binary matches; the gRPC client for EventStoreDB is pure JavaScript.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY scripts ./scripts
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

# --- runtime ---
FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    DATA_DIR=/app/data \
    MALLOC_MMAP_THRESHOLD_=131072
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# tsc does not copy the console's templates and assets: dist/ finds them under src/console.
COPY --from=build --chown=node:node /app/src/console ./src/console
RUN mkdir -p /app/data && chown node:node /app/data
# The official image's unprivileged user (uid 1000).
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=8", "--min-semi-space-size=8", "dist/main.js"]
