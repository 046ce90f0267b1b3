# syntax=docker/dockerfile:1
# Multi-stage build: compile with every dependency, run with production dependencies only, as a
# non-root user, on the same Node 24 LTS the project pins.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ormconfig.ts ./
COPY src ./src
# The operator console (docs/console.md): bundled into dist/console after the service.
COPY console ./console
COPY scripts/build-console.mjs ./scripts/
RUN npm run build

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    PORT=8080 \
    HOST=0.0.0.0 \
    DATABASE_URL=sqlite:/app/data/relayer.sqlite \
    DATA_DIR=/app/data \
    CONFIG_FILE=/app/config/config.json
WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY --chown=root:root package.json ./
# The shipped catalogue uses a generated development key, which production refuses:
# mount your own catalogue over /app/config (see README, "Networks and signers").
COPY --chown=root:root config ./config
RUN mkdir -p /app/data && chown node:node /app/data
USER node
VOLUME ["/app/data"]
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/api/v1/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# A smaller young generation, and an old generation sized for the service (about 90 MB live with a
# 20,000-signer catalogue), keep the resident set flat under load: without the cap V8 lets the old
# generation grow to up to 4x its live size between collections on a machine with a few GB of memory
# (see docs/performance.md). The same flags as `npm start`.
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=256", "dist/src/main.js"]
