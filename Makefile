# megaco: Megaco/H.248.1 codec service. `make test` is what CI runs.
GO ?= go
BIN := bin/megaco

.PHONY: all build run test generate check-generate lint dict bench bench-go bench-otp fuzz clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/megaco

# The service on its embedded defaults: gRPC on :50051, HTTP on :8080.
run: build
	./$(BIN) serve

# Regenerate the model and codecs from the ASN.1 modules in api/asn1.
PROTOC_GEN_GO := google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.12
PROTOC_GEN_GO_GRPC := google.golang.org/grpc/cmd/protoc-gen-go-grpc@v1.6.2

# Regenerate everything generated: the model, codecs, walker, API mirror and
# converters from api/asn1, then the Go code of api/megaco/v1/*.proto
# (needs protoc: apt-get install protobuf-compiler).
generate:
	$(GO) generate ./...   # internal/model: cmd/asn1gen; internal/codec/text: goyacc
	GOBIN=$(CURDIR)/bin $(GO) install $(PROTOC_GEN_GO)
	GOBIN=$(CURDIR)/bin $(GO) install $(PROTOC_GEN_GO_GRPC)
	cd api && protoc --plugin=protoc-gen-go=../bin/protoc-gen-go --plugin=protoc-gen-go-grpc=../bin/protoc-gen-go-grpc \
		-I . --go_out=. --go_opt=module=megaco/api --go-grpc_out=. --go-grpc_opt=module=megaco/api \
		megaco/v1/message.proto megaco/v1/codec.proto

# Fails when a generated file differs from what `make generate` writes.
check-generate: generate
	git diff --exit-code -- api internal

test:
	@test -z "$$(gofmt -l cmd internal)" || { echo "gofmt needed:"; gofmt -l cmd internal; exit 1; }
	$(GO) vet ./...
	$(GO) test -count=1 ./...
	@# -race needs cgo, hence a C compiler: go env says 0 when there is none.
	@if [ "$$($(GO) env CGO_ENABLED)" = 1 ]; then \
		echo "shared by goroutines, under the race detector:"; \
		$(GO) test -count=1 -race -run 'Shared|Concurrent' ./internal/codec/text ./internal/load; \
	else \
		echo "race detector step skipped: it needs cgo and a C compiler (install gcc, or set CC)"; \
	fi
	@echo "interop with OTP's golden corpus:"
	@$(GO) test -count=1 -v -run 'CorpusRoundTrip|CrossCodec|IndefiniteLength|TranscodeBinary|Golden|Corpus|Interop' ./internal/codec/... ./cmd/megaco \
		| grep -E '[0-9]+/[0-9]+' | sed -E 's/^ +[a-z_]+\.go:[0-9]+: /  /'

lint:
	$(GO) vet ./...
	$(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2 ./...
	cd api && $(GO) run github.com/bufbuild/buf/cmd/buf@v1.75.0 lint

# Retrain the native codec's compression dictionaries on the corpus.
dict:
	$(GO) run ./internal/codec/native/traindict

# The codec table, Erlang/OTP's codecs measured in the same run when erl
# with megaco is installed (about 2.5 minutes).
BENCHFLAGS ?= --cpus 2
bench: build
	./$(BIN) bench --otp $(BENCHFLAGS)

# Go benchmarks of the codecs (ns/msg = mean per message).
bench-go:
	$(GO) test -run '^$$' -bench . -benchmem ./internal/codec/...

# A short fuzzing run of each decoder (FUZZTIME=1m for longer).
FUZZTIME ?= 20s
fuzz:
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime $(FUZZTIME) ./internal/codec/ber
	$(GO) test -run '^$$' -fuzz FuzzDecodeMessage -fuzztime $(FUZZTIME) ./internal/codec/per
	$(GO) test -run '^$$' -fuzz FuzzDecoder -fuzztime $(FUZZTIME) ./internal/codec/per/x691
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime $(FUZZTIME) ./internal/codec/text
	$(GO) test -run '^$$' -fuzz FuzzDecode -fuzztime $(FUZZTIME) ./internal/codec/native
	$(GO) test -run '^$$' -fuzz FuzzTranscode -fuzztime $(FUZZTIME) ./internal/codec
	$(GO) test -run '^$$' -fuzz FuzzSalvage -fuzztime $(FUZZTIME) ./internal/codec
	$(GO) test -run '^$$' -fuzz FuzzReadTranscodeRequest -fuzztime $(FUZZTIME) ./internal/server
	$(GO) test -run '^$$' -fuzz FuzzAppendWire -fuzztime $(FUZZTIME) ./internal/codec/native

# OTP's codecs timed over the same corpus (needs erl with erlang-megaco).
bench-otp:
	escript tools/otp/codec_bench.escript corpus/otp-time-test 0.003

clean:
	rm -rf bin

# The container image with podman, or docker when podman is missing: built
# offline from a static binary compiled here (deploy/image/Dockerfile.prebuilt);
# `podman build .` (the root Dockerfile) builds from source instead.
# deploy/image-test.sh runs it; IMAGE names the result.
IMAGE ?= localhost/megaco:dev
CONTAINER ?= $(shell command -v podman 2>/dev/null || command -v docker 2>/dev/null)
IMAGE_BUILD_FLAGS ?=
.PHONY: image
image:
	@test -n "$(CONTAINER)" || { echo "make image: needs podman or docker"; exit 1; }
	rm -rf bin/image && mkdir -p bin/image
	CGO_ENABLED=0 $(GO) build -trimpath -buildvcs=auto -ldflags='-s -w' -o bin/image/megaco ./cmd/megaco
	$(CONTAINER) build $(IMAGE_BUILD_FLAGS) -f deploy/image/Dockerfile.prebuilt -t $(IMAGE) \
		--build-arg VERSION="$$(git describe --tags --always --dirty 2>/dev/null || echo devel)" \
		--build-arg REVISION="$$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
		--build-arg SOURCE="$$(git remote get-url origin 2>/dev/null)" bin/image
