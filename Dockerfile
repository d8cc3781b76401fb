# Cadre as a container: the same steps deploy/build-release.sh runs (and its test proves outside a
# container), then a small image that runs as a non-root user. See docs/deployment.md.
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY . .
RUN deploy/build-release.sh /src /app

FROM node:24-bookworm-slim
ENV NODE_ENV=production DATA_DIR=/data PORT=8080
RUN useradd --system --home-dir /app --shell /usr/sbin/nologin cadre \
  && mkdir -p /data && chown cadre /data
WORKDIR /app
COPY --from=build --chown=root:root /app /app
USER cadre
VOLUME /data
EXPOSE 8080
# Liveness only: readiness (the database) is the load balancer's business.
HEALTHCHECK --interval=10s --timeout=3s \
  CMD node -e "fetch('http://127.0.0.1:8080/backend/api/v1/public/health/live').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"
CMD ["node", "apps/server/dist/main.js"]
