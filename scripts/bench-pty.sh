#!/usr/bin/env bash
# Benchmarks agentproc's PTY path against its references (Linux):
#   1. start overhead: relay + `true` vs `true`, median and p90 of interleaved runs (target <= 10 ms);
#   2. relay throughput: `cat` of a text file through the relay vs `script -qfc`, output to
#      /dev/null (target >= 90% of script(1); the kernel tty layer caps both).
# Usage: scripts/bench-pty.sh [RUNS] [MIB] [TPUT_RUNS]   (defaults 31 500 5)
# The machine is shared: wall times are noisy, so the CPU-time ratio is printed as well.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-31}
mib=${2:-500}
tput_runs=${3:-5}
command -v script >/dev/null || { echo "script(1) not found: install util-linux (Debian: bsdutils)" >&2; exit 1; }
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/relaybench" ./agentproc/internal/relaybench
"$bin/relaybench" bench -runs "$runs" -mb "$mib" -tput-runs "$tput_runs" </dev/null
if command -v hyperfine >/dev/null; then
	echo "== hyperfine cross-check (start overhead)"
	hyperfine -N --warmup 5 --runs "$runs" true "$bin/relaybench run -- true"
fi
