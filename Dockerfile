# One image for every service; SERVICES picks what a container runs.
FROM node:22-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --ignore-scripts

FROM node:22-bookworm-slim
ENV NODE_ENV=production LOG_FORMAT=json HEALTH_PORT=8081
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/migrations ./migrations
COPY --from=build /app/resources ./resources
COPY package.json ./
USER node
EXPOSE 3000 8081
CMD ["node", "dist/bin/start.js"]
