#!/usr/bin/env bash
# Builds a 1,000,000-event ledger (Zipf vocabulary, ~500 B events, 1,000
# workstreams, batches of 400) in a temporary directory and reports ingest
# events/s, re-import events/s, p50/p99 search latency for rare, mid and
# common 2-word queries and newest-first, and the DB size against the text.
# The load average is printed before and after: the figures are only
# comparable between runs on a similarly loaded machine.
# Usage: scripts/bench-ledger.sh [events] [workstreams]   (takes minutes)
set -euo pipefail
cd "$(dirname "$0")/.."
events=${1:-1000000}
workstreams=${2:-1000}
work=$(mktemp -d "${TMPDIR:-/tmp}/ai-memory-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
loadavg() { if [ -r /proc/loadavg ]; then cut -d' ' -f1-3 /proc/loadavg; else uptime | sed 's/.*load averages*: //'; fi; }
go build -o "$work/ledgerbench" ./ledger/internal/benchgen/ledgerbench
echo "LOAD before: $(loadavg) ($(getconf _NPROCESSORS_ONLN 2>/dev/null || echo ?) CPUs)"
"$work/ledgerbench" -home "$work/home" -events "$events" -workstreams "$workstreams"
echo "LOAD after: $(loadavg)"
