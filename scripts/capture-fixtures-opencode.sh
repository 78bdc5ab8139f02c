# shellcheck shell=bash
# OpenCode part of scripts/capture-fixtures.sh (sourced by it; uses its
# save, verify, requests_with and tui_session helpers). Kept in its own file
# so the captures of other harnesses can change in parallel.
#
# OpenCode's store is one SQLite database for every session, so each step
# stores a text dump (sqlite3 .dump of the tables the reader uses, host
# paths scrubbed) of the whole database as it stands after that step:
#   print.sql         fresh `opencode run` with one tool call
#   print-resume.sql  + `opencode run --session <id>` on the same session
#   context.sql       + a session fresh and resumed with a handoff delivered
#                     through OPENCODE_CONFIG_CONTENT {"instructions": [file]}
#                     merged with a user value of the same variable
#   interactive.sql   + a TUI session in tmux with one tool call, then the
#                     TUI resumed with `opencode -s <id>` and context
# plus schema.sql (.schema of those tables) and run-*.jsonl (the
# `run --format json` event streams, which name the session id).

OPENCODE_TABLES="project session message part"
OPENCODE_TUI_READY='ctrl\+p|Ask anything|tab +agents|enter +send'

# opencode_dump DB OUT HOME writes a scrubbed dump of the reader's tables.
opencode_dump() {
	local db=$1 out=$2 home=$3 raw="$RIG_TMP/opencode-dump.sql"
	# The CLI may still be checkpointing; a read-only dump sees a consistent
	# snapshot either way.
	# shellcheck disable=SC2086
	sqlite3 "file:$db?mode=ro" ".dump $OPENCODE_TABLES" >"$raw"
	save "$raw" "$home" "$out"
}

# opencode_run ARGS... runs `opencode run --format json` and prints the
# session id named by its first event.
opencode_run() {
	rig_run opencode run --format json "$@" </dev/null | tee -a "$OC_EVENTS" |
		jq -r 'select(.sessionID != null) | .sessionID' | sed -n 1p
}

capture_opencode() {
	local ver=$1 bin home repo id db
	local label="opencode-$ver" out="$OPENCODE_OUT/$ver"
	bin=$(rig_opencode_bin "$ver") || return 0
	home="$RIG_TMP/opencode-$ver/home" repo="$RIG_TMP/opencode-$ver/home/project"
	rig_make_home "$home" && rig_make_repo "$repo" && rig_seed_opencode "$home" "$ver"
	rig_env "$home" "$bin"
	rig_opencode_env "$home"
	db=$(rig_opencode_db "$home")
	mkdir -p "$out"

	OC_EVENTS="$RIG_TMP/oc-run-print.jsonl"
	id=$(cd "$repo" && opencode_run --auto hello RUN_TOOL)
	[[ $id == ses_* ]] || { echo "FAIL: opencode run reported no session id"; return 1; }
	opencode_dump "$db" "$out/print.sql" "$home"
	(cd "$repo" && opencode_run --auto --session "$id" again >/dev/null)
	opencode_dump "$db" "$out/print-resume.sql" "$home"
	save "$OC_EVENTS" "$home" "$out/run-print.jsonl"

	# Handoff route: a packet file named by OPENCODE_CONFIG_CONTENT, merged
	# with an instructions file the user already set in the same variable.
	local dir="$RIG_TMP/opencode-$ver" user_cfg
	printf 'USER_INSTRUCTIONS %s\n' "$label" >"$dir/user.md"
	printf '%s\nINSTR_CONTEXT %s fresh\n' "$PACKET_MARKER" "$label" >"$dir/packet-fresh.md"
	printf '%s\nINSTR_CONTEXT %s resume\n' "$PACKET_MARKER" "$label" >"$dir/packet-resume.md"
	user_cfg=$(jq -cn --arg u "$dir/user.md" '{instructions: [$u]}')
	OC_EVENTS="$RIG_TMP/oc-run-context.jsonl"
	id=$(cd "$repo" && RIG_ENV+=("OPENCODE_CONFIG_CONTENT=$(opencode_merge "$user_cfg" "$dir/packet-fresh.md")") &&
		opencode_run --auto hello with context)
	(cd "$repo" && RIG_ENV+=("OPENCODE_CONFIG_CONTENT=$(opencode_merge "$user_cfg" "$dir/packet-resume.md")") &&
		opencode_run --auto --session "$id" resumed with context >/dev/null)
	opencode_dump "$db" "$out/context.sql" "$home"
	save "$OC_EVENTS" "$home" "$out/run-context.jsonl"
	verify "$label: run + OPENCODE_CONFIG_CONTENT instructions reached the model (fresh)" \
		"$(requests_with "INSTR_CONTEXT $label fresh")"
	verify "$label: run --session + OPENCODE_CONFIG_CONTENT instructions reached the model (resume)" \
		"$(requests_with "INSTR_CONTEXT $label resume")"
	verify "$label: the user's own OPENCODE_CONFIG_CONTENT instructions kept beside the packet" \
		"$(grep -F "INSTR_CONTEXT $label" "$MOCK_LOG" | grep -c -F "USER_INSTRUCTIONS $label" || true)"

	local name="opencode-${ver//./-}"
	tui_session "$name" "$repo" "opencode" \
		"$OPENCODE_TUI_READY" 'TOOL_DONE' /exit 'opencode -s ses_' ||
		{ rig_tmux capture-pane -p -t "$name" >&2; return 1; }
	id=$(grep -Eo 'opencode -s ses_[A-Za-z0-9]+' "$RIG_TMP/$name.pane" | sed -n 1p | cut -d' ' -f3)
	printf '%s\nTUI_CONTEXT %s resume\n' "$PACKET_MARKER" "$label" >"$dir/packet-tui.md"
	opencode_tui_resume "$name-resume" "$repo" "$id" "$(opencode_merge "" "$dir/packet-tui.md")" ||
		{ rig_tmux capture-pane -p -t "$name-resume" >&2; return 1; }
	opencode_dump "$db" "$out/interactive.sql" "$home"
	verify "$label: TUI -s <id> + OPENCODE_CONFIG_CONTENT instructions reached the model (resume)" \
		"$(requests_with "TUI_CONTEXT $label resume")"

	local t
	for t in $OPENCODE_TABLES; do sqlite3 "file:$db?mode=ro" ".schema $t"; done >"$out/schema.sql"
	chmod 644 "$out/schema.sql"
	echo "$ver" >"$out/VERSION"
}

# opencode_tui_resume NAME REPO ID CONFIG_CONTENT resumes session ID in the
# TUI with OPENCODE_CONFIG_CONTENT set, sends one prompt, waits for the
# answer and exits.
opencode_tui_resume() {
	local name=$1 repo=$2 id=$3 content=$4
	rig_tmux_shell "$name" "$repo" || return 1
	rig_tmux send-keys -t "$name" "OPENCODE_CONFIG_CONTENT=$(printf %q "$content") opencode -s $id" Enter
	rig_tmux_wait "$name" "$OPENCODE_TUI_READY" 90 || { echo "FAIL: $name: no prompt" >&2; return 1; }
	rig_tmux_type "$name" "resumed in tui" || { echo "FAIL: $name: input not echoed" >&2; return 1; }
	rig_tmux_wait "$name" 'ACK: resumed in tui' 90 || { echo "FAIL: $name: no answer" >&2; return 1; }
	rig_tmux_type "$name" /exit
	rig_tmux_wait "$name" 'opencode -s ses_' 30 || { echo "FAIL: $name: did not exit" >&2; return 1; }
	rig_tmux kill-session -t "$name"
}

# opencode_merge USER_JSON PACKET mirrors harness.OpenCodeConfigContent for
# the rig: the user's value with PACKET appended to its instructions array.
opencode_merge() {
	local user=${1:-"{}"}
	jq -cn --argjson u "$user" --arg p "$2" '$u + {instructions: (($u.instructions // []) + [$p])}'
}
