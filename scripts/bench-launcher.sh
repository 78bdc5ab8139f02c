#!/usr/bin/env bash
# Launcher overhead: time from invoking the command to the agent's first
# instruction, `ai-memory run claude -p x` against `claude -p x` directly
# (a fake claude first on PATH stamps CLOCK_MONOTONIC as its first action),
# interleaved, in a throwaway git checkout (once with a commit, once a fresh
# `git init` whose identity is provisional) with its own HOME and
# AI_MEMORY_HOME; median and p90 of the paired differences. Also the full
# wall time of `ai-memory run` and its cost after the agent exits (settle,
# import, checkpoint, delivery). Target: <= 10 ms added before the agent starts.
# Usage: scripts/bench-launcher.sh [RUNS] [PTY]   (defaults 31 true; PTY=false: stdin /dev/null)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-31}
pty=${2:-true}
work=$(mktemp -d "${TMPDIR:-/tmp}/ai-memory-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
make -s build
go build -o "$work/launchbench" ./launcher/internal/launchbench
# A repository with a commit (the usual checkout), then a fresh `git init`
# (identity provisional until the first commit).
for commit in true false; do
	"$work/launchbench" -ai-memory bin/ai-memory -runs "$runs" -pty="$pty" -commit="$commit" </dev/null
done
