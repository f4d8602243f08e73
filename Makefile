# engine: SQL over REST APIs. `make run` opens the engine against
# api.github.com; `make test` runs every test offline.
GO      ?= go
BIN     ?= bin/engine
ADDR    ?= 127.0.0.1:8099
PKGS    := ./...
# Packages with concurrent code run under the race detector.
RACE_PKGS := ./providers/... ./engine/... ./test/fakegithub/...

.PHONY: build test test-race bench run demo lint generate fuzz clean

build:
	$(GO) build -o $(BIN) ./cmd/engine

test: lint
	$(GO) test -count=1 -timeout 10m $(PKGS)
	$(GO) test -count=1 -race -timeout 10m $(RACE_PKGS)

bench: build
	$(GO) test -run '^$$' -bench . -benchtime 3x ./test/bench/... ./engine/...

# Opens the engine against api.github.com (GITHUB_TOKEN or GH_TOKEN when set).
run: build
	./$(BIN) shell

# Serves the fake GitHub from test/ on $(ADDR) and points the engine at it.
demo: build
	./scripts/demo.sh $(ADDR) $(BIN)

lint:
	@out="$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))"; \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

generate:
	cd registry && $(GO) generate

fuzz:
	@echo "no fuzz targets yet"

clean:
	rm -rf bin
