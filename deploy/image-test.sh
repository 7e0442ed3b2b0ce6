#!/usr/bin/env bash
# Builds the container image offline (make image) and runs it with podman
# as a platform would: a read-only root filesystem, no capabilities, the
# image's own non-root user. Checks the image's config (user, ports,
# labels), transcodes through curl and grpcurl, /healthz and /metrics,
# then SIGTERM: the service must drain and exit 0.
#
# The flags on `podman run` are this machine's, not the image's: the
# sandbox forbids raising limits (explicit --ulimit), has hybrid cgroups
# (--runtime runc) and no container networking (--network host, so the
# service binds free loopback ports, given by flags).
# Skips (exit 0, with a message) when podman is not installed.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v podman >/dev/null 2>&1; then
  echo "image-test: SKIP: podman is not installed (apt-get install podman runc uidmap fuse-overlayfs slirp4netns)"
  exit 0
fi
for tool in curl go; do
  command -v "$tool" >/dev/null 2>&1 || { echo "image-test: SKIP: $tool is not installed"; exit 0; }
done

image=localhost/megaco:image-test
ctr=megaco-image-test-$$
tmp=$(mktemp -d)
run=(podman run --runtime runc --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 --network host)
cleanup() {
  podman rm -f -t 0 "$ctr" >/dev/null 2>&1 || true
  podman rmi -f "$image" >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
fail() { echo "image-test: FAIL: $*"; podman logs "$ctr" 2>&1 | tail -20 || true; exit 1; }

# The root Dockerfile (from source; needs a registry, so not built here)
# must end in the same final stage as the offline one: compare the
# instructions after their last FROM, but for where the binary comes from.
final() { awk '/^FROM /{n=0; delete a} {a[n++]=$0} END{for(i=0;i<n;i++) print a[i]}' "$1" |
  grep -Ev '^\s*(#|$)' | grep -v '^COPY '; }
diff <(final Dockerfile) <(final deploy/image/Dockerfile.prebuilt) >"$tmp/final.diff" ||
  { cat "$tmp/final.diff"; fail "the final stages of Dockerfile and deploy/image/Dockerfile.prebuilt differ"; }

echo "image-test: make image"
# --layers=false: no intermediate images left behind by repeated runs.
make --no-print-directory image IMAGE="$image" IMAGE_BUILD_FLAGS=--layers=false >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; fail "make image"; }

# The image: non-root, the ports, the labels, nothing but the binary.
user=$(podman image inspect --format '{{.Config.User}}' "$image")
[ "$user" = "65532:65532" ] || fail "image user is '$user', want 65532:65532"
ports=$(podman image inspect --format '{{range $p, $_ := .Config.ExposedPorts}}{{$p}} {{end}}' "$image")
for p in 50051/tcp 8080/tcp 2944/udp 2944/tcp 2945/udp 2945/tcp; do
  [[ " $ports " == *" $p "* ]] || fail "port $p not exposed (have: $ports)"
done
for l in version revision source licenses; do
  podman image inspect --format "{{index .Labels \"org.opencontainers.image.$l\"}}" "$image" >/dev/null ||
    fail "label org.opencontainers.image.$l missing"
done
layers=$(podman image inspect --format '{{len .RootFS.Layers}}' "$image")
[ "$layers" = 1 ] || fail "$layers layers, want 1 (the binary on scratch)"
"${run[@]}" --rm "$image" version >"$tmp/version"
grep -q "^megaco .* go1\." "$tmp/version" || fail "megaco version in the image: $(cat "$tmp/version")"

# Free loopback ports (the host's network is shared).
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null ||
  echo $((20000 + RANDOM % 20000)); }
grpc=127.0.0.1:$(free_port); http=127.0.0.1:$(free_port)

"${run[@]}" -d --name "$ctr" --read-only --cap-drop ALL --security-opt no-new-privileges \
  "$image" serve --grpc-addr "$grpc" --http-addr "$http" --log-format json --drain-timeout 5s >/dev/null
for _ in $(seq 100); do
  curl -fsS --max-time 2 "http://$http/healthz" >/dev/null 2>&1 && break
  sleep 0.2
done
[ "$(curl -fsS --max-time 5 "http://$http/healthz")" = ok ] || fail "/healthz"
pid=$(podman inspect --format '{{.State.Pid}}' "$ctr")
uid=$(awk '/^Uid:/ {print $2}' "/proc/$pid/status")
[ "$uid" = 65532 ] || fail "the service runs as uid $uid, want 65532"

# curl: BER -> PER, byte for byte with OTP's encoding.
curl -fsS --max-time 10 --data-binary @corpus/otp-time-test/msg03.ber "http://$http/v1/transcode?from=ber&to=per" -o "$tmp/out.per"
cmp "$tmp/out.per" corpus/otp-time-test/msg03.per || fail "curl transcode output differs"
curl -fsS --max-time 10 "http://$http/metrics" -o "$tmp/metrics"
grep -q '^megaco_build_info{' "$tmp/metrics" || fail "megaco_build_info missing from /metrics"

# grpcurl: the same through gRPC (installed from the module proxy, as the README says).
grpcurl=$(command -v grpcurl || true)
if [ -z "$grpcurl" ]; then
  GOBIN="$tmp" go install github.com/fullstorydev/grpcurl/cmd/grpcurl@v1.9.3 >"$tmp/grpcurl.log" 2>&1 ||
    { cat "$tmp/grpcurl.log"; fail "cannot install grpcurl"; }
  grpcurl=$tmp/grpcurl
fi
resp=$("$grpcurl" -plaintext -max-time 10 -d "{\"data\": \"$(base64 -w0 corpus/otp-time-test/msg03.ber)\", \"to\": \"CODEC_PER\"}" \
  "$grpc" megaco.v1.CodecService/Transcode)
want=$(base64 -w0 corpus/otp-time-test/msg03.per)
[[ "$resp" == *"\"$want\""* ]] || fail "grpcurl Transcode: $resp"
"$grpcurl" -plaintext -max-time 10 -d '{"service": "megaco.v1.CodecService"}' "$grpc" grpc.health.v1.Health/Check >"$tmp/health"
grep -q SERVING "$tmp/health" || fail "gRPC health check"

# SIGTERM: drain and a clean exit.
podman kill --signal TERM "$ctr" >/dev/null
code=$(timeout 60 podman wait "$ctr") || fail "the container did not stop within 60 s of SIGTERM"
podman logs "$ctr" >"$tmp/serve.log" 2>&1
grep -q '"msg":"draining"' "$tmp/serve.log" && grep -q '"msg":"stopped"' "$tmp/serve.log" || { cat "$tmp/serve.log"; fail "no drain in the log"; }
[ "$code" = 0 ] || { cat "$tmp/serve.log"; fail "exit status $code after SIGTERM, want 0"; }
echo "image-test: ok: image $(podman image inspect --format '{{.Size}}' "$image") bytes, uid 65532, curl and grpcurl transcode, healthz, SIGTERM drained, exit 0"
