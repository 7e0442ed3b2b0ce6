# syntax=docker/dockerfile:1
# The megaco image, built from source (needs the golang image from a
# registry):  docker build -t megaco .   or   podman build -t megaco .
# Offline, from a binary built on the host: make image (deploy/Dockerfile.prebuilt).
# Both give the same final stage: a static binary on scratch, non-root.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION} AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# Static (no cgo: scratch has no libc), no build paths in the binary; the
# module version, VCS revision (when .git is in the context) and Go
# version stay in its build info for `megaco version` and megaco_build_info.
RUN CGO_ENABLED=0 go build -trimpath -buildvcs=auto -ldflags='-s -w' -o /out/megaco ./cmd/megaco

FROM scratch
ARG VERSION=devel
ARG REVISION=unknown
ARG SOURCE=
# The repository has no licence file yet: SPDX's NOASSERTION until it does.
ARG LICENSES=NOASSERTION
LABEL org.opencontainers.image.title="megaco" \
      org.opencontainers.image.description="Megaco/H.248.1 codec service: text, BER, PER and native over gRPC and HTTP, and the megaco proxy" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.revision="${REVISION}" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.licenses="${LICENSES}"
# Only the binary: the service terminates TLS with the certificates it is
# given and dials nothing over TLS itself, so no CA bundle is needed.
COPY --from=build /out/megaco /megaco
# 65532 is distroless's "nonroot"; scratch has no /etc/passwd, so numeric.
USER 65532:65532
# gRPC, HTTP (/v1, /metrics, /healthz, /readyz); the proxy's Megaco ports
# (2944 text, 2945 binary, each on UDP and TCP).
EXPOSE 50051/tcp 8080/tcp 2944/udp 2944/tcp 2945/udp 2945/tcp
ENTRYPOINT ["/megaco"]
CMD ["serve"]
