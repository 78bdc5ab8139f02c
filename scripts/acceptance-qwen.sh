#!/usr/bin/env bash
# Acceptance: `ai-memory run qwen` end to end with the real Qwen Code
# (QWEN_VERSION in lib/realclis-qwen.sh, override with
# AI_MEMORY_ACCEPTANCE_QWEN_VERSION) and the real Claude Code against the
# mock model. In one throwaway repo:
#   1. ai-memory run --yolo qwen "hello RUN_TOOL"      (fresh, tool call; Qwen
#                                                       offers no shell tool in
#                                                       print mode without yolo)
#   2. ai-memory run qwen "again"                       (resumes session 1)
#   3. ai-memory run claude -p "next RUN_TOOL" ...      (handoff qwen -> claude)
#   4. ai-memory run qwen "back"                        (handoff claude -> qwen, resumed)
#   5. ai-memory run --yolo qwen in tmux, "tui RUN_TOOL", /quit (interactive round)
# and checks the ledger order, one native Qwen session, that each packet
# reached the model with exactly the other harness's events, and that no
# request left 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

acc_setup
qwenbin=$(rig_qwen_bin "$QWEN_VERSION") || { echo "SKIP: acceptance-qwen needs qwen (see the SKIP line above)"; exit 0; }
if ((HAVE_CLAUDE == 0)); then
	echo "SKIP: acceptance-qwen needs claude (see SKIP lines above)"
	exit 0
fi
rig_seed_qwen "$HOME_DIR"
rig_env "$HOME_DIR" "$(dirname "$AIM")" "$qwenbin" "$(rig_claude_bin "$ACC_CLAUDE_VERSION")"
RIG_ENV+=("AI_MEMORY_HOME=$RIG_TMP/amdata")
rig_qwen_env

log_mark start
aim_step qwen-1 "TOOL_DONE: hello | ACK: hello RUN_TOOL" run --yolo qwen "hello RUN_TOOL" || true
aim_step qwen-2 "ACK: again" run qwen "again" || true
log_mark qwen2
aim_step claude-1 "TOOL_DONE: hello | ACK: next RUN_TOOL" \
	run claude -p "next RUN_TOOL" --dangerously-skip-permissions || true
log_mark claude1
aim_step qwen-3 "ACK: back" run qwen "back" || true
log_mark qwen3

# Interactive round in tmux.
if rig_need_tmux; then
	rig_tmux_shell qwen-tui "$REPO" || acc_finish
	rig_tmux send-keys -t qwen-tui "$AIM run --yolo qwen" Enter
	if rig_tmux_wait qwen-tui 'Type your message' 60; then
		rig_tmux_type qwen-tui "tui RUN_TOOL" || fail "qwen-tui: typed text was not echoed"
		check "qwen-tui: answer visible" rig_tmux_wait qwen-tui 'TOOL_DONE: hello \| ACK: tui RUN_TOOL' 60
		rig_tmux_type qwen-tui "/quit" || fail "qwen-tui: /quit was not echoed"
		check "qwen-tui: ai-memory returned to the shell" rig_tmux_wait qwen-tui 'saved [0-9]+ new event' 60
	else
		fail "qwen-tui: no prompt: $(rig_tmux capture-pane -p -t qwen-tui | tail -n 5 | tr '\n' ' ')"
	fi
else
	fail "qwen-tui: tmux is required"
fi

acc_events || acc_finish
s1=$(first_seq qwen message "hello RUN_TOOL")
s1c=$(first_seq qwen tool_call "echo hello")
s1r=$(first_seq qwen tool_result "hello")
s1a=$(first_seq qwen message "TOOL_DONE: hello | ACK: hello RUN_TOOL")
s2=$(first_seq qwen message "again")
s3=$(first_seq claude message "next RUN_TOOL")
s4=$(first_seq qwen message "back")
s5=$(first_seq qwen message "tui RUN_TOOL")
check "ledger: qwen prompt, tool call, tool result, answer in order" ordered "$s1" "$s1c" "$s1r" "$s1a"
check "ledger: qwen 1 < qwen 2 < claude < qwen 3 < qwen tui" ordered "$s1a" "$s2" "$s3" "$s4" "$s5"
check "ledger: each prompt imported exactly once" eq \
	"$(count_exact qwen message "hello RUN_TOOL")/$(count_exact qwen message again)/$(count_exact claude message "next RUN_TOOL")/$(count_exact qwen message back)/$(count_exact qwen message "tui RUN_TOOL")" \
	"1/1/1/1/1"
check "ledger: one native qwen session across all qwen runs" eq \
	"$(ev '[.[] | select(.harness == "qwen") | .native_session_id] | unique | length')" 1
check "qwen store: exactly one chat file" eq "$(find "$HOME_DIR/.qwen/projects" -path '*/chats/*.jsonl' | wc -l | tr -d ' ')" 1
check "ledger: no packet imported" eq "$(ev --arg m "$PACKET_MARKER" '[.[] | select(.content | contains($m))] | length')" 0

# Packets: Claude got Qwen's turns; the resumed Qwen got Claude's turn only.
claude_pkt=$(log_slice qwen2 claude1 | jq -c 'select(.method == "POST")' | packet_text)
check "mock: claude's requests carry the packet with qwen's turns" grep -qF "hello RUN_TOOL" <<<"$claude_pkt"
qwen_pkt=$(log_slice claude1 qwen3 | jq -c 'select(.method == "POST")' | packet_text)
check "mock: resumed qwen's requests carry the packet with claude's turn" grep -qF "next RUN_TOOL" <<<"$qwen_pkt"
check "mock: qwen's packet does not repeat qwen's own turns" bash -c '! grep -qF "hello RUN_TOOL" <<<"$1"' _ "$qwen_pkt"
check "mock: qwen's first runs carried no packet" eq "$(log_slice start qwen2 | grep -cF -- "$PACKET_MARKER" || true)" 0
check "mock: no request left 127.0.0.1 (phone-home)" eq "$(grep -c '"phone_home":true' "$MOCK_LOG" || true)" 0
acc_finish
