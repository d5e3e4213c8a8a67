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
# With a Sentry auth token (a build secret, so it stays out of the image and its history), the build sends the
# client's source maps to Sentry, tied to the release the server will report:
#   docker build --secret id=sentry_auth_token,env=SENTRY_AUTH_TOKEN \
#     --build-arg SENTRY_ORG=acme --build-arg SENTRY_PROJECT=brisk [--build-arg SENTRY_URL=https://sentry.example.com] .
# Without the secret it uploads nothing and says how. SENTRY_RELEASE, if given, is also the image's runtime release.
ARG SENTRY_ORG SENTRY_PROJECT SENTRY_URL SENTRY_RELEASE
RUN --mount=type=secret,id=sentry_auth_token,required=false \
    SENTRY_AUTH_TOKEN="$(cat /run/secrets/sentry_auth_token 2>/dev/null)" bun run build
# The data folder the non-root user owns (distroless has no shell to make it later).
RUN mkdir -p /empty-data

# The binary needs only glibc (libc, libm, libpthread, libdl). distroless/cc has it, plus CA
# certificates and a `nonroot` user (uid 65532), and no shell or package manager.
FROM gcr.io/distroless/cc-debian12:nonroot
WORKDIR /app
COPY --from=build /src/dist/brisk /app/brisk
# DATA_DIR: what must outlive a restart (the SQLite store and a generated cookie secret when DATABASE_URL and
# COOKIE_SECRET are unset, Sentry's outbox while Sentry is unreachable). A volume, so it outlives the container.
COPY --from=build --chown=65532:65532 /empty-data /data
VOLUME /data
# SHUTDOWN_TIMEOUT_MS: in-flight requests get 8 s after SIGTERM, then Sentry up to 2 s to flush, within
# `docker stop`'s default 10 s grace. Raise both together (docker stop -t, terminationGracePeriodSeconds).
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 SHUTDOWN_TIMEOUT_MS=8000 DATA_DIR=/data
# JavaScriptCore sizes its heap by the host's RAM, not the container's limit: told 1 GiB, it collects the garbage of
# a busy server soon enough to keep it ~30 MiB smaller (bench/README.md, "peak RSS"). Set it to the container's
# memory limit in bytes when that is lower (-e BUN_JSC_forceRAMSize=268435456 for 256 MiB).
ENV BUN_JSC_forceRAMSize=1073741824
# The release the maps were uploaded for; empty means the client build id, the upload's default too.
ARG SENTRY_RELEASE
ENV SENTRY_RELEASE=${SENTRY_RELEASE}
USER nonroot:nonroot
EXPOSE 3000
# No curl in this image: the binary asks its own /healthz and exits 0 or 1.
HEALTHCHECK --interval=15s --timeout=5s --start-period=5s --retries=3 CMD ["/app/brisk", "--healthcheck"]
# Exec form: the binary is PID 1 and receives SIGTERM itself.
ENTRYPOINT ["/app/brisk"]
