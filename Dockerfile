# syntax=docker/dockerfile:1
# Production image: compiled output and production dependencies only, as a non-root user.
# Expects DATABASE_URL, MERCHANT_ACCOUNTS and PUBLIC_URL (see README: Configuration).

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
# The gateway listens on loopback unless HOST says otherwise; in a container it must take connections
# from outside it.
ENV NODE_ENV=production \
    PORT=4000 \
    HOST=0.0.0.0
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
# The persisted-documents manifest: what trusted-documents-only clients may run (TRUSTED_DOCUMENTS_FILE).
COPY --chown=node:node client/generated/persisted-documents.json ./client/generated/persisted-documents.json
USER node
EXPOSE 4000
# /metrics listens on 127.0.0.1:9464 inside the container, out of reach by default (README: Operations).
# Ready, not merely alive: /readyz answers 503 while the database does not (within about a second,
# even when it hangs), so an orchestrator stops sending traffic to an instance that cannot serve it.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "dist/src/main.js"]
