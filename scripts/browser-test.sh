#!/usr/bin/env bash
# Runs the headless-browser test of `ai-memory ui` (cmd/ai-memory/browser_test.go).
# Installs Debian's chromium first when it is missing (needs root and apt),
# then makes the test required: without a browser it fails instead of skipping.
# Screenshots land in $AI_MEMORY_SCREENSHOTS (default: bin/ui-screenshots).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1; then
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "browser-test: chromium is missing and apt-get is not available; install chromium and retry" >&2
    exit 1
  fi
  echo "browser-test: installing chromium with apt-get" >&2
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

export AI_MEMORY_BROWSER_TEST=1
export AI_MEMORY_SCREENSHOTS="${AI_MEMORY_SCREENSHOTS:-$PWD/bin/ui-screenshots}"
exec "${GO:-go}" test -count=1 -run '^TestBrowserUI$' -v ./cmd/ai-memory/
