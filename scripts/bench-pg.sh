#!/usr/bin/env bash
# The PostgreSQL ledger's figures beside SQLite's (scripts/bench-ledger.sh):
# builds a 1,000,000-event ledger (Zipf vocabulary, ~500 B events, 1,000
# workstreams, batches of 400) on a private cluster on 127.0.0.1
# (scripts/pg-cluster.sh, stopped at the end) and reports ingest events/s
# with the search index kept current, re-import events/s, p50/p99 search
# latency for rare, mid and common 2-word queries and newest-first, and the
# database size; then the time `ai-memory run claude -p x` adds before the
# agent starts with that server as its ledger (scripts/bench-launcher.sh's
# launchbench with -ledger), and the Go benchmarks of ledger/postgres. The
# load average is printed before and after.
# Usage: scripts/bench-pg.sh [events] [workstreams]   (takes minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
workstreams=${2:-1000}
if [[ -z ${AI_MEMORY_TEST_POSTGRES:-} ]]; then
	exec scripts/pg-cluster.sh run "$0" "$@"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ai-memory-bench-pg.XXXXXX")
trap 'rm -rf "$work"' EXIT
loadavg() { if [ -r /proc/loadavg ]; then cut -d' ' -f1-3 /proc/loadavg; else uptime | sed 's/.*load averages*: //'; fi; }
go build -o "$work/ledgerbench" ./ledger/internal/benchgen/ledgerbench
echo "LOAD before: $(loadavg) ($(getconf _NPROCESSORS_ONLN 2>/dev/null || echo ?) CPUs)"
"$work/ledgerbench" -home "$work/home" -ledger "$AI_MEMORY_TEST_POSTGRES" -server-pid "${AI_MEMORY_TEST_POSTGRES_PID:-0}" \
	-events "$events" -workstreams "$workstreams"
echo "LOAD after ledgerbench: $(loadavg)"
make -s build BIN="$work/ai-memory"
go build -o "$work/launchbench" ./launcher/internal/launchbench
for commit in true false; do # a repository with a commit, then a fresh `git init`
	"$work/launchbench" -ai-memory "$work/ai-memory" -runs 31 -commit="$commit" -ledger "$AI_MEMORY_TEST_POSTGRES" </dev/null
done
echo "LOAD after launchbench: $(loadavg)"
go test -run '^$' -bench . -benchtime 2s ./ledger/postgres/
echo "LOAD after: $(loadavg)"
