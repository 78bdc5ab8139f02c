# ai-memory build and test entry points. `make help` lists them.
SHELL := /bin/bash
GO ?= go
BIN := bin/ai-memory
PKGS := ./...
FUZZTIME ?= 10s

.PHONY: help build install test unit race lint vet fmt-check bench fuzz acceptance browser-test pg-test clean

help: ## list targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

build: ## build bin/ai-memory
	$(GO) build -o $(BIN) ./cmd/ai-memory

install: ## install ai-memory into $(go env GOPATH)/bin
	$(GO) install ./cmd/ai-memory

test: lint race browser-test acceptance ## everything CI runs: lint, unit+e2e tests under -race, headless-browser UI test, real-CLI acceptance

unit: ## unit and end-to-end tests without the race detector
	$(GO) test $(PKGS)

race: ## unit and end-to-end tests with the race detector, on SQLite and on a private PostgreSQL cluster
	@scripts/pg-cluster.sh run $(GO) test -race -parallel 4 -timeout 30m $(PKGS)

pg-test: ## the PostgreSQL ledger's tests (conformance suite included) on a private cluster (installs postgresql with apt-get if missing)
	@scripts/pg-cluster.sh run $(GO) test -race -count 1 ./ledger/postgres/

lint: vet fmt-check ## go vet + gofmt check

vet:
	$(GO) vet $(PKGS)

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

bench: ## benchmarks (see README for the figures)
	$(GO) test -run '^$$' -bench . -benchmem ./ledger/... ./transcript/ ./agentproc/ ./launcher/ ./webui/

fuzz: ## run every fuzz target for FUZZTIME each
	@scripts/fuzz.sh $(FUZZTIME)

browser-test: ## headless chromium against `ai-memory ui` (installs chromium with apt-get if missing)
	@GO=$(GO) scripts/browser-test.sh

acceptance: build ## real Claude Code / Codex CLIs against a mock model on 127.0.0.1
	@scripts/acceptance.sh

clean:
	rm -rf bin
