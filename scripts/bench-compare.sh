#!/usr/bin/env bash
# Side-by-side benchmark (README "Performance"). Three parts:
#
#  1. A 200 MiB multi-project synthetic Claude Code store (10 checkouts x 10
#     sessions of 2 MiB, transcript/internal/synth): `ai-memory import` run in
#     every checkout into an empty data home (A) against
#     `ccusage daily --offline --json` over the same store (B), interleaved
#     A B A B; wall time, MB/s and peak RSS of each (medians) and the ratio.
#     Target: A >= 1.5x faster than B, A <= 64 MB RSS.
#  2. One workstream, one session of 50, 200 and 800 MiB, each imported into
#     an empty home: wall, MB/s, peak RSS and the whole data home (ledger.db,
#     WAL and segments). Target: 800 MiB in <= 4.4x the time of 200 MiB.
#  3. ledgerbench: 1M events appended to ONE workstream (events/s per 200k),
#     then p50/p99 of 2-word searches per Zipf band and newest-first, in
#     process and through the CLI (one `ai-memory workstream-search` process
#     per query). Targets: >= 18k events/s flat; CLI p99 <= 50 ms, newest
#     first <= 5 ms.
#
# ccusage is installed from npm at a pinned version into a cache outside the
# clone ($AI_MEMORY_BENCH_CACHE, default ~/.cache/ai-memory/bench); the
# generated stores are cached under ${TMPDIR:-/tmp}/ai-memory-bench-compare,
# keyed by the generator's source. The load average is printed before and
# after: on a shared machine the figures are only comparable within one run.
#
# Usage: scripts/bench-compare.sh [rounds]      (default 2 rounds: A B A B)
# Env: BENCH_PARTS="store scaling search" (any subset), BENCH_SEARCH_EVENTS.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
rounds=${1:-2}
parts=${BENCH_PARTS:-store scaling search}
# 18.0.11, a JavaScript release: 20.x is a launcher for a per-platform
# native package that the npm registry reachable here does not serve.
CCUSAGE_VERSION=18.0.11
cache=${AI_MEMORY_BENCH_CACHE:-$HOME/.cache/ai-memory/bench}
[[ -x /usr/bin/time ]] || { echo "/usr/bin/time not found: apt-get install time" >&2; exit 1; }
gen=${TMPDIR:-/tmp}/ai-memory-bench-compare
mkdir -p "$gen" && chmod 700 "$gen"
gen=$(cd "$gen" && pwd -P) # recorded cwds must be canonical paths
work=$(mktemp -d "${TMPDIR:-/tmp}/ai-memory-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

loadavg() { if [[ -r /proc/loadavg ]]; then cut -d' ' -f1-3 /proc/loadavg; else uptime | sed 's/.*load averages*: //'; fi; }
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
now() { echo "$EPOCHREALTIME"; }
# peak_kb FILE...: the largest "Maximum resident set size" among /usr/bin/time -v reports.
peak_kb() { awk -F': ' '/Maximum resident/ {if ($2 > m) m = $2} END {print m + 0}' "$@"; }
# cpu_s FILE...: user + system CPU seconds summed over /usr/bin/time -v reports
# (on a shared machine wall time includes waiting for a core; CPU time does not).
cpu_s() { awk -F': ' '/(User|System) time/ {s += $2} END {printf "%.2f\n", s}' "$@"; }

make -s build BIN="$work/ai-memory"
go build -o "$work/synthgen" ./transcript/internal/synth/synthgen
go build -o "$work/ledgerbench" ./ledger/internal/benchgen/ledgerbench
key=$(cat transcript/internal/synth/*.go transcript/internal/synth/synthgen/*.go | sha256sum | cut -c1-16)
echo "LOAD before: $(loadavg) ($(getconf _NPROCESSORS_ONLN 2>/dev/null || echo ?) CPUs); ai-memory $(git rev-parse --short HEAD)$(git diff --quiet || echo +dirty)"

# session_id N: a stable UUID-shaped session id.
session_id() { printf '5e1f0c2a-0000-4000-8000-%012d' "$1"; }

# make_store DIR: 10 git checkouts under DIR/checkouts and their 100
# sessions in DIR/home/.claude (generated once, then reused).
make_store() {
	local dir=$1 p s
	[[ -f $dir/.complete-$key ]] && return
	rm -rf "$dir" && mkdir -p "$dir/checkouts"
	echo "generating the 200 MiB store (10 checkouts x 10 sessions; once, cached in $dir)"
	for p in $(seq -w 1 10); do
		git init -q "$dir/checkouts/project-$p"
		for s in $(seq 1 10); do
			"$work/synthgen" -store "$dir/home/.claude" -cwd "$dir/checkouts/project-$p" \
				-session "$(session_id "$((10#$p * 100 + s))")" -mb 2 -seed "$((10#$p * 100 + s))" >/dev/null
		done
	done
	touch "$dir/.complete-$key"
}

# import_all STORE HOME TIMES: `ai-memory import` in every checkout; prints wall seconds.
import_all() {
	local store=$1 home=$2 times=$3 co t0
	t0=$(now)
	for co in "$store"/checkouts/*/; do
		(cd "$co" && HOME=$store/home AI_MEMORY_HOME=$home /usr/bin/time -v -o "$times.$(basename "$co")" \
			"$work/ai-memory" import --harness claude --json >"$home.out.json") || {
			echo "ai-memory import failed in $co:" >&2
			cat "$home.out.json" "$times.$(basename "$co")" >&2
			exit 1
		}
		grep -q '"added": [1-9]' "$home.out.json" || { echo "import in $co added nothing:" >&2; cat "$home.out.json" >&2; exit 1; }
	done
	awk -v a="$t0" -v b="$(now)" 'BEGIN {printf "%.3f\n", b - a}'
}

part_store() {
	local store=$gen/store ccusage bytes i a b
	make_store "$store"
	bytes=$(find "$store/home/.claude" -name '*.jsonl' -printf '%s\n' | awk '{s += $1} END {print s}')
	ccusage=$cache/ccusage-$CCUSAGE_VERSION/node_modules/.bin/ccusage
	if [[ ! -x $ccusage ]]; then
		echo "installing ccusage@$CCUSAGE_VERSION from npm into $cache (once)"
		mkdir -p "$cache"
		npm install --prefix "$cache/ccusage-$CCUSAGE_VERSION" --no-audit --no-fund --loglevel=error "ccusage@$CCUSAGE_VERSION" >/dev/null
	fi
	: >"$work/a.txt" && : >"$work/b.txt"
	for i in $(seq 1 "$rounds"); do
		rm -rf "$work/home-a"
		a=$(import_all "$store" "$work/home-a" "$work/time-a$i")
		echo "$a $(peak_kb "$work/time-a$i".*) $(cpu_s "$work/time-a$i".*)" >>"$work/a.txt"
		b=$( (t0=$(now)
			HOME=$store/home CLAUDE_CONFIG_DIR=$store/home/.claude /usr/bin/time -v -o "$work/time-b$i" \
				"$ccusage" daily --offline --json >"$work/ccusage.json"
			awk -v a="$t0" -v b="$(now)" 'BEGIN {printf "%.3f\n", b - a}'))
		grep -q '"daily"' "$work/ccusage.json" || { echo "ccusage printed no daily report:" >&2; head -c 400 "$work/ccusage.json" >&2; exit 1; }
		echo "$b $(peak_kb "$work/time-b$i") $(cpu_s "$work/time-b$i")" >>"$work/b.txt"
		echo "  round $i: ai-memory import ${a}s, ccusage daily ${b}s"
	done
	a=$(cut -d' ' -f1 "$work/a.txt" | median)
	b=$(cut -d' ' -f1 "$work/b.txt" | median)
	echo "STORE $(awk -v n="$bytes" 'BEGIN {printf "%.1f MB", n / 1e6}'), 100 sessions, 10 checkouts; medians of $rounds interleaved rounds:"
	printf '| %-44s | %8s | %7s | %13s | %8s |\n' "tool" "wall" "MB/s" "peak RSS" "CPU"
	printf '| %-44s | %8s | %7s | %13s | %8s |\n' "---" "---" "---" "---" "---"
	awk -v n="$bytes" -v t="$a" -v r="$(cut -d' ' -f2 "$work/a.txt" | sort -g | tail -1)" -v c="$(cut -d' ' -f3 "$work/a.txt" | median)" \
		'BEGIN {printf "| %-44s | %7.2fs | %7.1f | %9.1f MiB | %7.2fs |\n", "ai-memory import (10 checkouts, sum)", t, n / 1e6 / t, r / 1024, c}'
	awk -v n="$bytes" -v t="$b" -v r="$(cut -d' ' -f2 "$work/b.txt" | sort -g | tail -1)" -v c="$(cut -d' ' -f3 "$work/b.txt" | median)" -v v="$CCUSAGE_VERSION" \
		'BEGIN {printf "| %-44s | %7.2fs | %7.1f | %9.1f MiB | %7.2fs |\n", "ccusage " v " daily --offline --json", t, n / 1e6 / t, r / 1024, c}'
	awk -v a="$a" -v b="$b" 'BEGIN {printf "RATIO ccusage / ai-memory wall = %.2fx (target >= 1.5x; RSS is the largest of any round)\n", b / a}'
}

part_scaling() {
	local mb dir session bytes t0 t rss home size
	echo "SCALING one workstream, one session, import into an empty data home:"
	printf '| %6s | %8s | %8s | %7s | %11s | %23s |\n' "MiB" "wall" "CPU" "MB/s" "peak RSS" "data home (x text read)"
	printf '| %6s | %8s | %8s | %7s | %11s | %23s |\n' "---" "---" "---" "---" "---" "---"
	for mb in 50 200 800; do
		dir=$gen/scale-$mb
		if [[ ! -f $dir/.complete-$key ]]; then
			rm -rf "$dir" && git init -q "$dir/checkout"
			echo "  generating a $mb MiB session (once, cached in $dir)"
			"$work/synthgen" -store "$dir/home/.claude" -cwd "$dir/checkout" -session "$(session_id "$mb")" -mb "$mb" >"$dir/session.path"
			touch "$dir/.complete-$key"
		fi
		bytes=$(stat -c %s "$(cat "$dir/session.path")")
		home=$work/scale-home
		rm -rf "$home"
		t0=$(now)
		(cd "$dir/checkout" && HOME=$dir/home AI_MEMORY_HOME=$home /usr/bin/time -v -o "$work/time-s$mb" \
			"$work/ai-memory" import --harness claude --json >"$work/scale.json")
		t=$(awk -v a="$t0" -v b="$(now)" 'BEGIN {printf "%.3f\n", b - a}')
		rss=$(peak_kb "$work/time-s$mb")
		size=$(du -sb "$home" | cut -f1)
		echo "$mb $t" >>"$work/scaling.txt"
		awk -v mb="$mb" -v n="$bytes" -v t="$t" -v c="$(cpu_s "$work/time-s$mb")" -v r="$rss" -v s="$size" \
			'BEGIN {printf "| %6d | %7.2fs | %7.2fs | %7.1f | %7.1f MiB | %11.1f MB (%.2fx) |\n", mb, t, c, n / 1e6 / t, r / 1024, s / 1e6, s / n}'
		rm -rf "$home"
	done
	awk '{t[$1] = $2} END {printf "SCALING 200/50 MiB time = %.2fx, 800/200 MiB time = %.2fx (target <= 4.4x)\n", t[200] / t[50], t[800] / t[200]}' "$work/scaling.txt"
}

part_search() {
	local n=${BENCH_SEARCH_EVENTS:-1000000}
	echo "LEDGER one workstream, $n events of ~500 B (Zipf vocabulary), batches of 400:"
	"$work/ledgerbench" -home "$work/ledger-home" -events "$n" -workstreams 1 -cli "$work/ai-memory"
	rm -rf "$work/ledger-home"
}

for p in $parts; do
	echo
	"part_$p"
done
echo
echo "LOAD after: $(loadavg)"
