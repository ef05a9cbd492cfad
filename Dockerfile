FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
# The pages' browser scripts, bundled by the API on first request (api/browser-page.ts).
COPY --from=build /app/web ./web
COPY --from=build /app/package.json ./
USER node
CMD ["node", "dist/api/main.js"]
