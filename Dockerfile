# One image for every service; SERVICES picks what a container runs.
# No install scripts run anywhere (--ignore-scripts): no dependency needs one.

FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:22-bookworm-slim AS production-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force

FROM node:22-bookworm-slim
# The SSRF guard stays on in the image, embedded mode included (`docker run` with no DATABASE_URL):
# webhooks to private and loopback addresses are refused unless a deployment says otherwise.
ENV LOG_FORMAT=json HEALTH_PORT=8081 WEBHOOK_ALLOW_PRIVATE=false
WORKDIR /app
COPY --from=production-deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY migrations ./migrations
COPY resources ./resources
COPY package.json ./
# DATA_DIR of embedded mode (`docker run` with no DATABASE_URL); distributed mode writes nothing.
RUN mkdir -p /app/data && chown 1000:1000 /app/data
# Numeric, so that Kubernetes' runAsNonRoot can verify it (uid 1000 is the image's `node` user).
USER 1000:1000
EXPOSE 3000 8081
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.HEALTH_PORT || 8081) + '/readyz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "dist/bin/start.js"]
