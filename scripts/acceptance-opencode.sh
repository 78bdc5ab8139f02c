#!/usr/bin/env bash
# Acceptance: the real OpenCode CLI under ai-memory, against the mock on
# 127.0.0.1, in one repository: `ai-memory run opencode run …` with a tool
# call -> `claude -p …` -> `codex exec …` (those installed) -> `opencode run …`
# -> one TUI round in tmux. (The issue's chain also has Gemini, which is not
# registered yet.) Checks in the mock's request log that the first OpenCode
# run got no packet, each later harness got the history it had not seen
# exactly once, the returning OpenCode got the others' events exactly once
# (through OPENCODE_CONFIG_CONTENT instructions) and resumed its own
# session, and that the user's OpenCode config was not changed.
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
packet_has() { packet_text | grep -F -- "$1" >/dev/null; }
packet_lacks() { ! packet_text | grep -F -- "$1" >/dev/null; }

log_mark start
aim_step opencode-1 "TOOL_DONE: hello" run opencode run --auto "hello RUN_TOOL" || true
log_mark oc1
# The other harnesses in a chain: claude, then codex (each one installed).
others=() prompts=() prev=oc1
if ((HAVE_CLAUDE)); then
	aim_step claude-1 "ACK: claude turn" run claude -p "claude turn" --dangerously-skip-permissions || true
	log_mark claude
	others+=(claude) prompts+=("claude turn")
	reqs_claude=$(requests_of "$prev" claude messages | grep -v count_tokens || true) prev=claude
fi
if ((HAVE_CODEX)); then
	aim_step codex-1 "TOOL_DONE: hello | ACK: next RUN_TOOL" \
		run codex exec --skip-git-repo-check "next RUN_TOOL" || true
	log_mark codex
	others+=(codex) prompts+=("next RUN_TOOL")
	reqs_codex=$(requests_of "$prev" codex responses || true) prev=codex
fi
aim_step opencode-2 "ACK: again" run opencode run "again" || true
log_mark oc2

oc1=$(requests_of start oc1 'chat/completions' | agent_requests "hello RUN_TOOL")
oc2=$(requests_of "$prev" oc2 'chat/completions' | agent_requests "again")
check "first opencode run: no packet in its model requests" all_lines has_markers 0 <<<"$oc1"
for i in "${!others[@]}"; do
	o=${others[$i]} var="reqs_${others[$i]}"
	reqs=${!var}
	check "$o: every request carries the packet exactly once" all_lines has_markers 1 <<<"$reqs"
	check "$o: packet holds opencode's prompt" packet_has "hello RUN_TOOL" <<<"$(head -n 1 <<<"$reqs")"
	check "$o: packet holds opencode's tool call" packet_has "echo hello" <<<"$(head -n 1 <<<"$reqs")"
	((i == 0)) || check "$o: packet holds ${others[0]}'s prompt" packet_has "${prompts[0]}" <<<"$(head -n 1 <<<"$reqs")"
	check "$o: packet does not hold its own prompt" packet_lacks "${prompts[$i]}" <<<"$(head -n 1 <<<"$reqs")"
done
check "second opencode run: every agent request carries the packet exactly once" all_lines has_markers 1 <<<"$oc2"
for i in "${!others[@]}"; do
	check "second opencode run: packet holds ${others[$i]}'s prompt" packet_has "${prompts[$i]}" <<<"$(head -n 1 <<<"$oc2")"
done
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
seqs=("$(first_seq opencode message "hello RUN_TOOL")")
for i in "${!others[@]}"; do seqs+=("$(first_seq "${others[$i]}" message "${prompts[$i]}")"); done
seqs+=("$(first_seq opencode message "again")" "$(first_seq opencode message "tui round")")
check "ledger: opencode, ${others[*]}, opencode, opencode (tui) in order" ordered "${seqs[@]}"
check "ledger: opencode's tool call imported" [ "$(count_events opencode tool_call "echo hello")" -ge 1 ]
check "ledger: no event holds the packet" \
	eq "$(ev --arg m "$PACKET_MARKER" '[.[] | select(.content | contains($m))] | length')" 0
check "opencode.json of the user unchanged" eq "$(sha256sum <"$user_cfg")" "$sum_cfg"

acc_finish
