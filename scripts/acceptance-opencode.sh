#!/usr/bin/env bash
# Acceptance: the real OpenCode CLI under ai-memory, against the mock on
# 127.0.0.1: `ai-memory run opencode run …` with a tool call, then Codex (or
# Claude, whichever is installed), then OpenCode again. Checks in the mock's
# request log that the first OpenCode run got no packet, the other harness
# got OpenCode's events exactly once, the returning OpenCode got the other
# harness's events exactly once (through OPENCODE_CONFIG_CONTENT
# instructions) and resumed its own session, and that the user's OpenCode
# config and no store file outside OpenCode's own writes were touched.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

acc_setup
if ! ocbin=$(rig_opencode_bin "$OPENCODE_VERSION"); then
	echo "SKIP: acceptance-opencode needs opencode-ai $OPENCODE_VERSION from npm"
	exit 0
fi
if ((HAVE_CODEX == 0 && HAVE_CLAUDE == 0)); then
	echo "SKIP: acceptance-opencode needs codex or claude for the handoff (see SKIP lines above)"
	exit 0
fi
rig_seed_opencode "$HOME_DIR" "$OPENCODE_VERSION"
rig_opencode_env "$HOME_DIR"
for i in "${!RIG_ENV[@]}"; do
	[[ ${RIG_ENV[$i]} == PATH=* ]] && RIG_ENV[i]="PATH=$ocbin:${RIG_ENV[$i]#PATH=}"
done
db=$(rig_opencode_db "$HOME_DIR")
user_cfg="$HOME_DIR/.config/opencode/opencode.json"
sum_cfg=$(sha256sum <"$user_cfg")

requests_of() { log_slice "$1" "$2" | jq -c --arg re "$3" 'select(.method == "POST" and (.path | test($re)))'; }
# agent_requests: the requests that carry the user's prompt (OpenCode's
# title generator sends its own, smaller request with no system prompt).
agent_requests() { grep -F -- "$1" || true; }
has_markers() { [[ $(marker_count) == "$1" ]]; }
packet_has() { packet_text | grep -qF -- "$1"; }
packet_lacks() { ! packet_text | grep -qF -- "$1"; }

log_mark start
aim_step opencode-1 "TOOL_DONE: hello" run opencode run --auto "hello RUN_TOOL" || true
log_mark oc1
if ((HAVE_CODEX)); then
	other=codex path=responses
	aim_step codex-1 "TOOL_DONE: hello | ACK: next RUN_TOOL" \
		run codex exec --skip-git-repo-check "next RUN_TOOL" || true
else
	other=claude path=messages
	aim_step claude-1 "TOOL_DONE: hello | ACK: next RUN_TOOL" \
		run claude -p "next RUN_TOOL" --dangerously-skip-permissions || true
fi
log_mark other1
aim_step opencode-2 "ACK: again" run opencode run "again" || true
log_mark oc2

oc1=$(requests_of start oc1 'chat/completions' | agent_requests "hello RUN_TOOL")
o1=$(requests_of oc1 other1 "$path" | grep -v count_tokens || true)
oc2=$(requests_of other1 oc2 'chat/completions' | agent_requests "again")

check "first opencode run: no packet in its model requests" all_lines has_markers 0 <<<"$oc1"
check "$other: every request carries the packet exactly once" all_lines has_markers 1 <<<"$o1"
check "$other: packet holds opencode's prompt" packet_has "hello RUN_TOOL" <<<"$(head -n 1 <<<"$o1")"
check "$other: packet holds opencode's tool call" packet_has "echo hello" <<<"$(head -n 1 <<<"$o1")"
check "second opencode run: every agent request carries the packet exactly once" all_lines has_markers 1 <<<"$oc2"
check "second opencode run: packet holds $other's prompt" packet_has "next RUN_TOOL" <<<"$(head -n 1 <<<"$oc2")"
check "second opencode run: packet does not repeat opencode's own events" \
	packet_lacks "hello RUN_TOOL" <<<"$(head -n 1 <<<"$oc2")"

sessions=$(sqlite3 "file:$db?mode=ro" "select count(*) from session where parent_id is null" 2>&1)
check "the returning opencode resumed its own session (one session in the store)" eq "$sessions" 1

# One interactive round: bare `ai-memory run opencode` in tmux resumes the
# linked session in the TUI.
tui_round() {
	local name=octui
	rig_need_tmux || return 1
	rig_tmux_shell "$name" "$REPO" || return 1
	rig_tmux send-keys -t "$name" "$(printf %q "$AIM") run opencode" Enter
	rig_tmux_wait "$name" 'ctrl\+p|Ask anything|tab +agents|enter +send' 90 || return 1
	rig_tmux_type "$name" "tui round" || return 1
	rig_tmux_wait "$name" 'ACK: tui round' 90 || return 1
	rig_tmux_type "$name" /exit || return 1
	rig_tmux_wait "$name" 'saved [0-9]+ new event' 60 || return 1
	rig_tmux kill-session -t "$name"
}
check "tui: ai-memory run opencode answered one interactive round and saved it" tui_round ||
	rig_tmux capture-pane -p -t octui >"$RIG_TMP/octui.pane" 2>/dev/null || true
sessions=$(sqlite3 "file:$db?mode=ro" "select count(*) from session where parent_id is null" 2>&1)
check "tui: the TUI resumed the same session (still one in the store)" eq "$sessions" 1

rc=0
aim handoff --harness opencode >"$RIG_TMP/handoff-opencode.out" 2>&1 || rc=$?
check "handoff --harness opencode: exits 0 with nothing unseen left" \
	eq "$rc/$(marker_count <"$RIG_TMP/handoff-opencode.out")" 0/0

acc_events || true
oc_a=$(first_seq opencode message "hello RUN_TOOL") o_b=$(first_seq "$other" message "next RUN_TOOL")
oc_c=$(first_seq opencode message "again") oc_d=$(first_seq opencode message "tui round")
check "ledger: opencode, $other, opencode, opencode (tui) in order" ordered "$oc_a" "$o_b" "$oc_c" "$oc_d"
check "ledger: opencode's tool call imported" [ "$(count_events opencode tool_call "echo hello")" -ge 1 ]
check "ledger: no event holds the packet" \
	eq "$(ev --arg m "$PACKET_MARKER" '[.[] | select(.content | contains($m))] | length')" 0
check "opencode.json of the user unchanged" eq "$(sha256sum <"$user_cfg")" "$sum_cfg"

acc_finish
