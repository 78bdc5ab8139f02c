#!/usr/bin/env bash
# Acceptance: interactive `ai-memory run` with the real TUIs, driven in tmux:
#   1. ai-memory run claude             types "hello RUN_TOOL" (a tool call)
#   2. ai-memory run codex --no-daemon  types "next RUN_TOOL"
#   3. ai-memory run claude             types "again" (must resume session 1)
# Each time: wait for the prompt, type, wait for the answer, grow the tmux
# window and check the agent's terminal got the new size (and Claude
# redrew at that width), quit, and check `stty -g` in the pane is unchanged.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

rig_need_tmux || { echo "FAIL: tmux is required and could not be installed"; exit 1; }
acc_setup
if ((HAVE_CLAUDE == 0 || HAVE_CODEX == 0)); then
	echo "SKIP: acceptance-tui needs both claude and codex (see SKIP lines above)"
	exit 0
fi

PANE=tui
WIDE_X=200 WIDE_Y=50

# agent_tty prints the terminal of the agent process: the child of the
# ai-memory process that the pane's shell runs.
agent_tty() {
	local shell_pid aim_pid agent_pid
	shell_pid=$(rig_tmux display -p -t "$PANE" '#{pane_pid}')
	aim_pid=$(ps -o pid= --ppid "$shell_pid" | sed -n 1p | tr -d ' ')
	[[ -n $aim_pid ]] || return 1
	agent_pid=$(ps -o pid= --ppid "$aim_pid" | sed -n 1p | tr -d ' ')
	[[ -n $agent_pid ]] || return 1
	readlink "/proc/$agent_pid/fd/0"
}

# agent_got_size ROWS COLS waits until the agent's terminal reports that size.
agent_got_size() {
	local tty i
	for ((i = 0; i < 50; i++)); do
		tty=$(agent_tty) && [[ $(stty -F "$tty" size 2>/dev/null) == "$1 $2" ]] && return 0
		sleep 0.2
	done
	return 1
}

# shell_back waits until the pane's last non-empty line is the rig prompt.
shell_back() {
	local i
	for ((i = 0; i < 100; i++)); do
		rig_tmux capture-pane -p -t "$PANE" | grep -v '^[[:space:]]*$' | tail -n 1 | grep -Eq '^rig\$ ?$' && return 0
		sleep 0.2
	done
	return 1
}

# stty_snapshot NAME records `stty -g` of the pane's shell into $RIG_TMP/NAME.stty.
stty_snapshot() {
	rm -f "$RIG_TMP/$1.stty"
	rig_tmux send-keys -t "$PANE" "stty -g > $RIG_TMP/$1.stty.tmp && mv $RIG_TMP/$1.stty.tmp $RIG_TMP/$1.stty" Enter
	local i
	for ((i = 0; i < 50; i++)); do
		[[ -s $RIG_TMP/$1.stty ]] && return 0
		sleep 0.1
	done
	return 1
}

# session NAME CMD READY_RE PROMPT ANSWER QUIT REDRAW_RE drives one TUI run.
session() {
	local name=$1 cmd=$2 ready=$3 prompt=$4 answer=$5 quit=$6 redraw=$7
	rig_tmux resize-window -t "$PANE" -x 160 -y 45
	stty_snapshot "$name-before" || fail "$name: could not record stty -g before"
	rig_tmux send-keys -t "$PANE" "$cmd" Enter
	if ! rig_tmux_wait "$PANE" "$ready" 60; then
		fail "$name: prompt never appeared"
		rig_tmux capture-pane -p -t "$PANE" | tail -n 15
		rig_tmux send-keys -t "$PANE" C-c C-c C-d
		shell_back || true
		return 0
	fi
	pass "$name: prompt appeared"
	rig_tmux_type "$PANE" "$prompt" || fail "$name: typed text was not echoed"
	check "$name: answer '$answer' visible" rig_tmux_wait "$PANE" "$answer" 60
	rig_tmux resize-window -t "$PANE" -x "$WIDE_X" -y "$WIDE_Y"
	check "$name: agent terminal resized to ${WIDE_Y}x$WIDE_X" agent_got_size "$WIDE_Y" "$WIDE_X"
	if [[ -n $redraw ]]; then
		check "$name: agent redrew at the new width" rig_tmux_wait "$PANE" "$redraw" 20
	fi
	rig_tmux_type "$PANE" "$quit" || fail "$name: $quit was not echoed"
	check "$name: back at the shell after $quit" shell_back
	stty_snapshot "$name-after" || fail "$name: could not record stty -g after"
	check "$name: stty -g identical before and after" \
		cmp -s "$RIG_TMP/$name-before.stty" "$RIG_TMP/$name-after.stty"
}

rig_tmux_shell "$PANE" "$REPO" || acc_finish
rig_tmux set-option -t "$PANE" -g window-size manual
claude_rule="^(─){$WIDE_X}\$"
log_mark start
session claude-1 "$AIM run claude" 'for shortcuts|auto mode on' "hello RUN_TOOL" \
	'TOOL_DONE: hello \| ACK: hello RUN_TOOL' /exit "$claude_rule"
log_mark claude1
session codex-1 "$AIM run codex --no-daemon" 'Ask Codex|for shortcuts' "next RUN_TOOL" \
	'TOOL_DONE: hello \| ACK: next RUN_TOOL' /quit ""
log_mark codex1
session claude-2 "$AIM run claude" 'for shortcuts|auto mode on' "again" 'ACK: again' /exit "$claude_rule"
log_mark claude2

acc_events || true
check "ledger: claude run 1 < codex run < claude run 2" ordered \
	"$(first_seq claude message "hello RUN_TOOL")" "$(first_seq claude tool_call "echo hello")" \
	"$(first_seq claude message "TOOL_DONE: hello | ACK: hello RUN_TOOL")" \
	"$(first_seq codex message "next RUN_TOOL")" "$(first_seq codex tool_call "echo hello")" \
	"$(first_seq codex message "TOOL_DONE: hello | ACK: next RUN_TOOL")" \
	"$(first_seq claude message "again")" "$(first_seq claude message "ACK: again")"
sid1=$(session_of claude "hello RUN_TOOL")
check "ledger: second claude launch continued the first native session" eq "$(session_of claude "again")" "$sid1"
hdr2=$(log_slice codex1 claude2 | jq -c 'select(.path | test("/messages$"))' | tail -n 1 | claude_session_header)
check "mock: second claude launch sent the first session id" eq "$hdr2" "$sid1"

# The Codex turn that answered "next RUN_TOOL" (not its title request).
codex_turn=$(log_slice claude1 codex1 |
	jq -c 'select((.path | test("/responses$")) and ((.body.tools // []) | length > 0))' | sed -n 1p)
check "codex: its model request carried the packet exactly once" eq "$(marker_count <<<"$codex_turn")" 1
check "codex: the packet held claude's history" grep -qF "hello RUN_TOOL" <(packet_text <<<"$codex_turn")

acc_finish
