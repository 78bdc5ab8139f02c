# ai-memory build and test entry points. `make help` lists them.
SHELL := /bin/bash
GO ?= go
BIN := bin/ai-memory
PKGS := ./...
FUZZTIME ?= 10s

.PHONY: help build install test unit race race-pg lint vet fmt-check bench fuzz acceptance acceptance-pg browser-test pg-test clean

help: ## list targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*## /\t/'

# How ai-memory is built, here and by every script (`make -s build BIN=...`).
# A CLI process pays its start on every search, status and launch:
# statically linked (no dynamic loader; cgo only ever served net's and
# os/user's lookups, which have pure-Go versions) and without urfave/cli's
# man-page and Markdown generators (never called; their init costs ~0.3 ms),
# `ai-memory workstream-search` in a 1M-event ledger takes 6.1 instead of
# 7.5 ms (perf stat, 60 runs, interleaved).
BUILDENV := CGO_ENABLED=0
BUILDTAGS := -tags urfave_cli_no_docs

build: ## build bin/ai-memory
	$(BUILDENV) $(GO) build $(BUILDTAGS) -o $(BIN) ./cmd/ai-memory

install: ## install ai-memory into $(go env GOPATH)/bin
	$(BUILDENV) $(GO) install $(BUILDTAGS) ./cmd/ai-memory

test: lint race race-pg browser-test acceptance acceptance-pg ## everything CI runs: lint, unit+e2e tests under -race on SQLite then on PostgreSQL, headless-browser UI test, real-CLI acceptance (and Claude -> Codex on PostgreSQL)

unit: ## unit and end-to-end tests without the race detector
	$(GO) test $(PKGS)

race: ## unit and end-to-end tests with the race detector, on SQLite and on a private PostgreSQL cluster
	@scripts/pg-cluster.sh run $(GO) test -race -parallel 4 -timeout 30m $(PKGS)

# LEDGER_PKGS: the packages whose tests open ledgers through
# internal/testledger, i.e. run on the backend AI_MEMORY_TEST_LEDGER names.
LEDGER_PKGS = $(shell $(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' $(PKGS) | awk '/internal\/testledger( |$$)/ && $$1 !~ /testledger$$/ {print $$1}')

race-pg: ## the tests that touch the ledger again, with every ledger on PostgreSQL (a database per test or script, private cluster)
	@AI_MEMORY_TEST_LEDGER=postgres scripts/pg-cluster.sh run $(GO) test -race -parallel 4 -timeout 30m $(LEDGER_PKGS)

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

acceptance-pg: build ## real Claude Code -> Codex -> Claude (scripts/acceptance-run.sh) with the ledger on PostgreSQL (private cluster)
	@AI_MEMORY_ACCEPTANCE_LEDGER=postgres AI_MEMORY_ACCEPTANCE_REBUILD=0 scripts/pg-cluster.sh run bash scripts/acceptance-run.sh

clean:
	rm -rf bin
