#!/usr/bin/env bash
# End-to-end import benchmark: `ai-memory import --harness claude --json`
# (the real CLI) on a seeded synthetic Claude Code session of MB MiB into an
# empty ledger, inside a throwaway git checkout whose path is the session's
# recorded cwd. Prints end-to-end MB/s, events/s and the peak RSS of the
# whole process (from /usr/bin/time -v), then the reader-only figure from
# the transcript benchmark on the same file.
# Targets: reader >= 100 MB/s; end to end >= 25 MB/s; RSS <= 64 MB.
# The session is generated once and cached under ${TMPDIR:-/tmp}/ai-memory-bench-import
# (regenerated when the generator's source changes). Usage: scripts/bench-import.sh [MB]
set -euo pipefail
cd "$(dirname "$0")/.."
mb=${1:-200}
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time not found: apt-get install time" >&2; exit 1; }
cache=${TMPDIR:-/tmp}/ai-memory-bench-import
mkdir -p "$cache" && chmod 700 "$cache"
cache=$(cd "$cache" && pwd -P) # the recorded cwd must be the canonical path
checkout=$cache/checkout
store=$cache/home/.claude
work=$(mktemp -d "${TMPDIR:-/tmp}/ai-memory-bench.XXXXXX")
trap 'rm -rf "$work" "$checkout"' EXIT

# The session is cached, keyed by its size and the generator's source.
key=$(cat transcript/internal/synth/*.go transcript/internal/synth/synthgen/*.go | sha256sum | cut -c1-16)-$mb
stamp=$cache/session-$key.path
if [[ ! -s $stamp || ! -f $(cat "$stamp") ]]; then
	rm -rf "$cache/home" "$cache"/session-*.path
	echo "generating a $mb MiB synthetic Claude session (once; cached in $cache)"
	go run ./transcript/internal/synth/synthgen -store "$store" -cwd "$checkout" -mb "$mb" >"$stamp"
fi
session=$(cat "$stamp")
bytes=$(stat -c %s "$session")

make -s build
rm -rf "$checkout" && git init -q "$checkout"
start=$EPOCHREALTIME
(cd "$checkout" && HOME=$cache/home AI_MEMORY_HOME=$work/data /usr/bin/time -v -o "$work/time.txt" \
	"$OLDPWD/bin/ai-memory" import --harness claude --json >"$work/import.json")
end=$EPOCHREALTIME
added=$(grep -o '"added": [0-9]*' "$work/import.json" | awk '{s += $2} END {print s + 0}')
[[ $added -gt 0 ]] || { echo "import added no events:" >&2; cat "$work/import.json" >&2; exit 1; }
awk -v b="$bytes" -v s="$start" -v e="$end" -v n="$added" -v db="$(du -sm "$work/data" | cut -f1)" 'BEGIN {
	t = e - s
	printf "import (CLI, end to end): %.1f MB in %.2f s = %.1f MB/s (target >= 25), %d events = %.0f events/s, ledger home %d MB\n",
		b / 1e6, t, b / 1e6 / t, n, n / t, db }'
awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} /Maximum resident/ {r = $2 / 1024}
	END {printf "import peak RSS (whole process): %.1f MB (target <= 64); CPU: user %.2f s, system %.2f s\n", r, u, s}' "$work/time.txt"

# Reader alone, on the same file (MB/s from go test -bench; RSS of the test process).
go test -c -o "$work/transcript.test" ./transcript
(cd transcript && AI_MEMORY_BENCH_FILE="$session" /usr/bin/time -v -o "$work/time-reader.txt" \
	"$work/transcript.test" -test.run '^$' -test.bench '^BenchmarkReadClaude200MB$' \
	-test.benchtime "${BENCHTIME:-3x}" -test.benchmem >"$work/reader.txt")
grep '^BenchmarkReadClaude200MB' "$work/reader.txt" | awk '{for (i = 1; i < NF; i++) if ($(i+1) == "MB/s") printf "reader alone: %s MB/s (target >= 100)\n", $i}'
awk -F': ' '/Maximum resident/ {printf "reader peak RSS (whole process): %.1f MB\n", $2 / 1024}' "$work/time-reader.txt"
