# syntax=docker/dockerfile:1
# Brisk's container: `bun run build` in the official Bun image, then the one binary alone on a minimal
# glibc base, as a non-root user. The binary embeds the client; nothing else is copied.

FROM oven/bun:1.4.4 AS build
WORKDIR /src
# Dependencies first, so a code change does not reinstall them.
COPY package.json bun.lock bunfig.toml ./
RUN bun install --frozen-lockfile
COPY tsconfig.json ./
COPY scripts ./scripts
COPY src ./src
COPY public ./public
RUN bun run build && mkdir -p /data

# The binary needs only glibc (libc, libm, libpthread, libdl). distroless/cc has it, plus CA
# certificates and a `nonroot` user (uid 65532), and no shell or package manager.
FROM gcr.io/distroless/cc-debian12:nonroot
WORKDIR /app
COPY --from=build /src/dist/brisk /app/brisk
# DATA_DIR: the SQLite store and a generated cookie secret, when DATABASE_URL and COOKIE_SECRET are unset.
# A volume, so they outlive the container; owned by the user the server runs as.
COPY --from=build --chown=nonroot:nonroot /data /data
VOLUME /data
# SHUTDOWN_TIMEOUT_MS: in-flight requests get 8 s after SIGTERM, then Sentry up to 2 s to flush, within
# `docker stop`'s default 10 s grace. Raise both together (docker stop -t, terminationGracePeriodSeconds).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 SHUTDOWN_TIMEOUT_MS=8000 DATA_DIR=/data
USER nonroot:nonroot
EXPOSE 3000
# No curl in this image: the binary asks its own /healthz and exits 0 or 1.
HEALTHCHECK --interval=15s --timeout=5s --start-period=5s --retries=3 CMD ["/app/brisk", "--healthcheck"]
# Exec form: the binary is PID 1 and receives SIGTERM itself.
ENTRYPOINT ["/app/brisk"]
