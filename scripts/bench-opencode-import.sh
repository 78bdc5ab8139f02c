#!/usr/bin/env bash
# End-to-end OpenCode import benchmark: `ai-memory import --harness opencode
# --json` (the real CLI) of a generated store in the real 1.18.33 schema (one
# session of 120k parts, the mix of transcript/opencode_bench_test.go) into an
# empty ledger, inside a git checkout that is the session's directory.
# Prints parts/s, events/s and the peak RSS of the whole process (from
# /usr/bin/time -v). RUNS (default 3) repetitions; report the median.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time not found: apt-get install time" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ai-memory-bench-oc.XXXXXX")
work=$(cd "$work" && pwd -P) # the recorded directory must be the canonical path
trap 'rm -rf "$work"' EXIT
go test -c -o "$work/transcript.test" ./transcript
(cd transcript && AI_MEMORY_OPENCODE_BENCH_GEN="$work/home" "$work/transcript.test" \
	-test.run '^TestGenerateOpenCodeBenchStore$' >/dev/null)
git init -q "$work/home/project"
db=$work/home/.local/share/opencode/opencode.db
parts=$(sqlite3 "$db" 'SELECT COUNT(*) FROM part' 2>/dev/null || echo 120000)
echo "store: $(du -m "$db" | cut -f1) MB, $parts parts"
make -s build BIN="$work/ai-memory"
for ((i = 1; i <= ${RUNS:-3}; i++)); do
	rm -rf "$work/data"
	start=$EPOCHREALTIME
	(cd "$work/home/project" && env -u XDG_DATA_HOME HOME="$work/home" AI_MEMORY_HOME="$work/data" \
		/usr/bin/time -v -o "$work/time.txt" "$work/ai-memory" import --harness opencode --json >"$work/import.json")
	end=$EPOCHREALTIME
	added=$(grep -o '"added": [0-9]*' "$work/import.json" | awk '{s += $2} END {print s + 0}')
	[[ $added -gt 0 ]] || { echo "import added no events:" >&2; cat "$work/import.json" >&2; exit 1; }
	awk -v p="$parts" -v s="$start" -v e="$end" -v n="$added" 'BEGIN {
		t = e - s; printf "import (CLI, end to end): %d parts in %.2f s = %.0f parts/s, %d events = %.0f events/s", p, t, p / t, n, n / t }'
	awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} /Maximum resident/ {r = $2 / 1024}
		END {printf ", peak RSS %.1f MB, CPU %.2f s\n", r, u + s}' "$work/time.txt"
done
