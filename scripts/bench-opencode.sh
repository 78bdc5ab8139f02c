#!/usr/bin/env bash
# Measures the OpenCode reader on a generated store in the real 1.18.33
# schema: one session of 120k parts (transcript/opencode_bench_test.go has
# the mix). Prints parts/s (wall, from go test -bench), the CPU seconds of
# the reading process (user+sys: steadier than wall time on a shared
# machine) and its peak RSS (from /usr/bin/time -v; the store is generated
# by a separate process so its memory is not counted). RUNS (default 3)
# repetitions; report the median.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go test -c -o "$work/transcript.test" ./transcript
(cd transcript && AI_MEMORY_OPENCODE_BENCH_GEN="$work/home" "$work/transcript.test" \
	-test.run '^TestGenerateOpenCodeBenchStore$' >/dev/null)
echo "store: $(du -m "$work/home/.local/share/opencode/opencode.db" | cut -f1) MB"
for ((i = 1; i <= ${RUNS:-3}; i++)); do
	(cd transcript && AI_MEMORY_OPENCODE_BENCH_HOME="$work/home" /usr/bin/time -v \
		"$work/transcript.test" -test.run '^$' -test.bench '^BenchmarkReadOpenCode120kParts$' \
		-test.benchtime 1x -test.benchmem >"$work/out.txt" 2>"$work/time.txt")
	grep '^BenchmarkReadOpenCode' "$work/out.txt"
	awk -F': ' '/User time/ {u=$2} /System time/ {s=$2} /Maximum resident/ {r=$2}
		END {printf "  cpu %.1f s (%.0f parts per cpu-second), peak RSS (whole process) %.1f MB\n", u+s, 120000/(u+s), r/1024}' "$work/time.txt"
done
