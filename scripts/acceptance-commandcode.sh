#!/usr/bin/env bash
# Acceptance: `ai-memory run command-code` end to end with the real Command
# Code (COMMANDCODE_VERSION in lib/realclis-commandcode.sh) and the real
# Codex against the mock model. In one throwaway repo:
#   1. ai-memory run command-code -p "hello RUN_TOOL" --yolo (fresh, tool call)
#   2. ai-memory run command-code -p "again"                  (resumes session 1)
#   3. ai-memory run codex exec ... "next RUN_TOOL"           (handoff -> codex)
#   4. ai-memory run command-code -p "back"                   (handoff codex ->, resumed)
#   5. ai-memory run command-code in tmux, "tui RUN_TOOL", /exit (interactive round)
# and checks the ledger order, one native session, and that each packet
# reached the model with exactly the other harness's events.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

acc_setup
ccbin=$(rig_commandcode_bin "$COMMANDCODE_VERSION") || { echo "SKIP: acceptance-commandcode needs command-code (see the SKIP line above)"; exit 0; }
if ((HAVE_CODEX == 0)); then
	echo "SKIP: acceptance-commandcode needs codex (see SKIP lines above)"
	exit 0
fi
rig_seed_commandcode "$HOME_DIR"
rig_env "$HOME_DIR" "$(dirname "$AIM")" "$ccbin" "$(rig_codex_bin "$CODEX_VERSION")"
RIG_ENV+=("AI_MEMORY_HOME=$RIG_TMP/amdata")
rig_commandcode_env

H=command-code
log_mark start
aim_step cc-1 "TOOL_DONE: hello | ACK: hello RUN_TOOL" run $H -p "hello RUN_TOOL" --yolo || true
aim_step cc-2 "ACK: again" run $H -p "again" || true
log_mark cc2
aim_step codex-1 "TOOL_DONE: hello | ACK: next RUN_TOOL" \
	run codex exec --skip-git-repo-check "next RUN_TOOL" || true
log_mark codex1
aim_step cc-3 "ACK: back" run $H -p "back" || true
log_mark cc3

# Interactive round in tmux (the project folder exists: no trust question;
# --skip-onboarding: the TUI otherwise offers to learn "taste" from the
# Codex session it finds in the same HOME).
if rig_need_tmux; then
	rig_tmux_shell cc-tui "$REPO" || acc_finish
	rig_tmux send-keys -t cc-tui "$AIM run $H --yolo --skip-onboarding" Enter
	if rig_tmux_wait cc-tui 'Ask your question' 90; then
		sleep 1 # the first paint drops keys typed during it
		rig_tmux_type cc-tui "tui RUN_TOOL" ||
			fail "cc-tui: typed text was not echoed: $(rig_tmux capture-pane -p -t cc-tui | grep -v '^ *$' | tail -n 12)"
		check "cc-tui: answer visible" rig_tmux_wait cc-tui 'TOOL_DONE: hello \| ACK: tui RUN_TOOL' 90
		# The slash-command menu redraws the input line while /exit is typed,
		# so its echo is not waited for; Enter is what matters.
		rig_tmux_type cc-tui "/exit" || rig_tmux send-keys -t cc-tui Enter
		check "cc-tui: ai-memory returned to the shell" rig_tmux_wait cc-tui 'saved [0-9]+ new event' 90
	else
		fail "cc-tui: no prompt: $(rig_tmux capture-pane -p -t cc-tui | tail -n 5 | tr '\n' ' ')"
	fi
else
	fail "cc-tui: tmux is required"
fi

acc_events || acc_finish
s1=$(first_seq $H message "hello RUN_TOOL")
s1c=$(first_seq $H tool_call "echo hello")
s1r=$(first_seq $H tool_result "hello")
s1a=$(first_seq $H message "TOOL_DONE: hello | ACK: hello RUN_TOOL")
s2=$(first_seq $H message "again")
s3=$(first_seq codex message "next RUN_TOOL")
s4=$(first_seq $H message "back")
s5=$(first_seq $H message "tui RUN_TOOL")
check "ledger: prompt, tool call, tool result, answer in order" ordered "$s1" "$s1c" "$s1r" "$s1a"
check "ledger: cc 1 < cc 2 < codex < cc 3 < cc tui" ordered "$s1a" "$s2" "$s3" "$s4" "$s5"
check "ledger: each prompt imported exactly once" eq \
	"$(count_exact $H message "hello RUN_TOOL")/$(count_exact $H message again)/$(count_exact codex message "next RUN_TOOL")/$(count_exact $H message back)/$(count_exact $H message "tui RUN_TOOL")" \
	"1/1/1/1/1"
check "ledger: one native command-code session across all runs" eq \
	"$(ev --arg h $H '[.[] | select(.harness == $h) | .native_session_id] | unique | length')" 1
check "store: exactly one session file" eq "$(find "$HOME_DIR/.commandcode/projects" -name '*.jsonl' ! -name '*.checkpoints.jsonl' | wc -l | tr -d ' ')" 1
check "ledger: no packet imported" eq "$(ev --arg m "$PACKET_MARKER" '[.[] | select(.content | contains($m))] | length')" 0

codex_pkt=$(log_slice cc2 codex1 | jq -c 'select(.method == "POST")' | packet_text)
check "mock: codex's requests carry the packet with command-code's turns" grep -qF "hello RUN_TOOL" <<<"$codex_pkt"
cc_pkt=$(log_slice codex1 cc3 | jq -c 'select(.method == "POST")' | packet_text)
check "mock: resumed command-code's requests carry the packet with codex's turn" grep -qF "next RUN_TOOL" <<<"$cc_pkt"
check "mock: its packet does not repeat its own turns" bash -c '! grep -qF "hello RUN_TOOL" <<<"$1"' _ "$cc_pkt"
check "mock: the first runs carried no packet" eq "$(log_slice start cc2 | grep -cF -- "$PACKET_MARKER" || true)" 0
check "mock: no phone-home attempt" eq "$(grep -c '"phone_home":true' "$MOCK_LOG" || true)" 0
acc_finish
