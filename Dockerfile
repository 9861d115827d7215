# The official container (docs/operations.md): `docker build -t circulo-ceo .`, then compose.yaml
# or `docker run --env-file .env -p 3000:3000 -v circulo-data:/data circulo-ceo`.
# server/container.test.ts checks every path, command, port and variable named here.

# Node 20 (package.json's engines), Debian bookworm as CI: the same glibc for sharp's binaries.
ARG NODE_IMAGE=node:20-bookworm-slim
# pg_dump must be at least the server's version (npm run backup); compose.yaml's PostgreSQL is this one.
ARG PG_MAJOR=17

# Every dependency, to build with.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --no-audit --no-fund

# The site: build/ (server bundle and browser files, compressed at build time).
FROM deps AS build
COPY . .
RUN npm run build

# Only what the server needs to run: no compiler, no test tools.
FROM ${NODE_IMAGE} AS production-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm install --omit=dev --no-audit --no-fund && npm cache clean --force

FROM ${NODE_IMAGE} AS runtime
ARG PG_MAJOR
# tini is PID 1: it passes SIGTERM to `npm start`'s supervisor (which drains the server) and reaps
# what ffmpeg or pg_dump leave behind. ffmpeg reads an uploaded video's duration and poster frame
# (session videos without Mux); postgresql-client is for `npm run backup` and `npm run restore`.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates postgresql-common \
  && /usr/share/postgresql-common/pgdg/apt.postgresql.org.sh -y \
  && apt-get install -y --no-install-recommends tini ffmpeg "postgresql-client-${PG_MAJOR}" \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
# SHUTDOWN_DELAY_SECONDS: a stopping server serves 5 s more with /readyz answering 503, so a load
# balancer polling it stops sending first (docs/operations.md, 'Stop'); 0 for a lone container.
ENV NODE_ENV=production \
  PORT=3000 \
  DATA_DIR=/data \
  MEMORY_LIMIT_MB=512 \
  SHUTDOWN_DELAY_SECONDS=5
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json package-lock.json server.js ./
COPY server ./server
COPY scripts ./scripts
COPY drizzle ./drizzle
# The embedded database, its generated secret and local uploads (unused with DATABASE_URL and S3).
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 CMD ["node", "scripts/healthcheck.js", "/healthz"]
# Exec form: the signal reaches tini, then Node, with no shell in between. The server's graceful
# stop takes up to 20 s (SHUTDOWN_DELAY_SECONDS, then at most 15 s of drain): stop with
# `docker stop -t 25` (compose.yaml's stop_grace_period).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "scripts/start.js"]
