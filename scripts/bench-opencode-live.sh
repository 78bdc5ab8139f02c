#!/usr/bin/env bash
# Measures whether ai-memory's live import (it follows OpenCode's WAL-mode
# SQLite store while the agent runs) slows OpenCode down: RUNS (default 5)
# interleaved pairs of one `opencode run --auto "turn N RUN_TOOL"` turn,
# plain in one repository and under `ai-memory run` in another, both
# resuming their own session after the first pair, against the mock on
# 127.0.0.1. Prints each wall time and the medians; the difference of the
# medians is the cost of wrapping (lease, live import, final import), not
# only of the live import. Pair 0 (first start, npm plugin cache) is not
# counted.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

rig_init
acc_build || exit 1
rig_mock_start || exit 1
HOME_DIR="$RIG_TMP/home"
rig_make_home "$HOME_DIR"
ocbin=$(rig_opencode_bin "$OPENCODE_VERSION") || { echo "SKIP: needs opencode-ai $OPENCODE_VERSION"; exit 0; }
rig_seed_opencode "$HOME_DIR" "$OPENCODE_VERSION"
rig_env "$HOME_DIR" "$(dirname "$AIM")" "$ocbin"
RIG_ENV+=("AI_MEMORY_HOME=$RIG_TMP/amdata")
# AI_MEMORY_MCP=0 measures the wrapping without the per-run MCP server.
[[ -n ${AI_MEMORY_MCP:-} ]] && RIG_ENV+=("AI_MEMORY_MCP=$AI_MEMORY_MCP")
rig_opencode_env "$HOME_DIR"
plain="$HOME_DIR/plain" wrapped="$HOME_DIR/wrapped"
rig_make_repo "$plain" >/dev/null
rig_make_repo "$wrapped" >/dev/null

# timed DIR CMD...: sets T to the wall seconds of CMD run in DIR; a
# failure is reported and ends the script.
timed() {
	local dir=$1 t0 t1
	shift
	t0=$(date +%s.%N)
	if ! (cd "$dir" && rig_run "$@" </dev/null >"$RIG_TMP/last.out" 2>&1); then
		echo "FAIL: $* exited non-zero: $(tail -n 3 "$RIG_TMP/last.out")"
		exit 1
	fi
	t1=$(date +%s.%N)
	T=$(echo "$t1 - $t0" | bc)
}
median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

p=() w=()
for ((i = 0; i <= ${RUNS:-5}; i++)); do
	cont=()
	((i > 0)) && cont=(-c)
	timed "$plain" opencode run "${cont[@]}" --auto "turn $i RUN_TOOL"
	tp=$T
	timed "$wrapped" "$AIM" run opencode run --auto "turn $i RUN_TOOL"
	tw=$T
	printf 'pair %d: plain %.2f s, under ai-memory %.2f s (load %s)\n' "$i" "$tp" "$tw" "$(cut -d' ' -f1 /proc/loadavg)"
	((i > 0)) && p+=("$tp") && w+=("$tw")
done
mp=$(printf '%s\n' "${p[@]}" | median) mw=$(printf '%s\n' "${w[@]}" | median)
printf 'median of %d: plain %.2f s, under ai-memory %.2f s, difference %+.2f s\n' "${#p[@]}" "$mp" "$mw" "$(echo "$mw - $mp" | bc)"
