# runcode as a container: a static binary on a distroless base, run as a non-root user.
#
#   docker build -t runcode:latest .
#   docker run --rm -p 8080:8080 -e RUNCODE_AUTH_TOKEN=… runcode:latest
#
# The process-isolation workers are this same binary re-executed (through /proc/self/exe),
# each under its own RLIMIT_DATA, which a process may lower for itself without privileges: no
# capability, no privileged mode and no writable root filesystem is needed.

# The Go release of go.mod's go directive (deploy/deploy_test.go checks that they agree).
FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
# go.mod replaces goja with the fork in third_party/goja (third_party/goja/RUNCODE.md).
COPY third_party/ third_party/
RUN go mod download
COPY . .
# The same command as the README's "static binary" line (deploy/deploy_test.go checks it).
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o runcode ./cmd/runcode
RUN mkdir -p /out/workspace

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /src/runcode /usr/local/bin/runcode
# The default workspace, writable by the user; mount a volume here to keep its files (a
# read-only root filesystem needs one anyway).
COPY --from=build --chown=65532:65532 /out/workspace /workspace
WORKDIR /workspace
USER 65532:65532
EXPOSE 8080
ENTRYPOINT ["/usr/local/bin/runcode"]
# Binding every interface needs a token ($RUNCODE_AUTH_TOKEN or --auth-token-file): without
# one, serve refuses to start.
CMD ["serve", "--http", ":8080", "--stateless", "--workspace", "/workspace"]
