# Build stage: compile TypeScript to dist/.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-fund --no-audit
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY migrations ./migrations
COPY dashboard ./dashboard
RUN npm run build

# Runtime stage: production dependencies and the compiled code only.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production NODE_PATH=/app/dist
# The options `npm start` gives node (package.json), for every node command run in this image:
# a young generation of up to 64 MB a semi-space (README, "Node's options").
ENV NODE_OPTIONS=--max-semi-space-size=64
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-fund --no-audit
COPY --from=build /app/dist ./dist
EXPOSE 3000
CMD ["node", "dist/src/main.js"]
