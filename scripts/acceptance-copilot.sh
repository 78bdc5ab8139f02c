#!/usr/bin/env bash
# Acceptance: `ai-memory run copilot` end to end with the real GitHub Copilot
# CLI (COPILOT_VERSION in lib/realclis-copilot.sh) and the real Codex
# against the mock model. In one throwaway repo:
#   1. ai-memory run copilot -p "hello RUN_TOOL" --yolo  (fresh, tool call)
#   2. ai-memory run copilot -p "again"                   (resumes session 1)
#   3. ai-memory run codex exec ... "next RUN_TOOL"       (handoff copilot -> codex)
#   4. ai-memory run copilot -p "back"                    (handoff codex -> copilot, resumed)
#   5. ai-memory run copilot in tmux, "tui RUN_TOOL", /exit (interactive round)
# and checks the ledger order, one native Copilot session, and that each
# packet reached the model with exactly the other harness's events.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

acc_setup
cpbin=$(rig_copilot_bin "$COPILOT_VERSION") || { echo "SKIP: acceptance-copilot needs copilot (see the SKIP line above)"; exit 0; }
if ((HAVE_CODEX == 0)); then
	echo "SKIP: acceptance-copilot needs codex (see SKIP lines above)"
	exit 0
fi
rig_seed_copilot "$HOME_DIR" "$REPO"
rig_env "$HOME_DIR" "$(dirname "$AIM")" "$cpbin" "$(rig_codex_bin "$CODEX_VERSION")"
RIG_ENV+=("AI_MEMORY_HOME=$RIG_TMP/amdata")
rig_copilot_env

log_mark start
aim_step copilot-1 "TOOL_DONE: hello | ACK: hello RUN_TOOL" run copilot -p "hello RUN_TOOL" --yolo -s || true
aim_step copilot-2 "ACK: again" run copilot -p "again" -s || true
log_mark copilot2
aim_step codex-1 "TOOL_DONE: hello | ACK: next RUN_TOOL" \
	run codex exec --skip-git-repo-check "next RUN_TOOL" || true
log_mark codex1
aim_step copilot-3 "ACK: back" run copilot -p "back" -s || true
log_mark copilot3

# Interactive round in tmux.
if rig_need_tmux; then
	rig_tmux_shell cp-tui "$REPO" || acc_finish
	rig_tmux send-keys -t cp-tui "$AIM run copilot" Enter
	if rig_tmux_wait cp-tui 'mock-model' 60; then
		rig_tmux_type cp-tui "tui RUN_TOOL" || fail "copilot-tui: typed text was not echoed"
		check "copilot-tui: answer visible" rig_tmux_wait cp-tui 'TOOL_DONE: hello \| ACK: tui RUN_TOOL' 60
		rig_tmux_type cp-tui "/exit" || fail "copilot-tui: /exit was not echoed"
		check "copilot-tui: ai-memory returned to the shell" rig_tmux_wait cp-tui 'saved [0-9]+ new event' 60
	else
		fail "copilot-tui: no prompt: $(rig_tmux capture-pane -p -t cp-tui | tail -n 5 | tr '\n' ' ')"
	fi
else
	fail "copilot-tui: tmux is required"
fi

acc_events || acc_finish
s1=$(first_seq copilot message "hello RUN_TOOL")
s1c=$(first_seq copilot tool_call "echo hello")
s1r=$(first_seq copilot tool_result "hello")
s1a=$(first_seq copilot message "TOOL_DONE: hello | ACK: hello RUN_TOOL")
s2=$(first_seq copilot message "again")
s3=$(first_seq codex message "next RUN_TOOL")
s4=$(first_seq copilot message "back")
s5=$(first_seq copilot message "tui RUN_TOOL")
check "ledger: copilot prompt, tool call, tool result, answer in order" ordered "$s1" "$s1c" "$s1r" "$s1a"
check "ledger: copilot 1 < copilot 2 < codex < copilot 3 < copilot tui" ordered "$s1a" "$s2" "$s3" "$s4" "$s5"
check "ledger: each prompt imported exactly once" eq \
	"$(count_exact copilot message "hello RUN_TOOL")/$(count_exact copilot message again)/$(count_exact codex message "next RUN_TOOL")/$(count_exact copilot message back)/$(count_exact copilot message "tui RUN_TOOL")" \
	"1/1/1/1/1"
check "ledger: one native copilot session across all copilot runs" eq \
	"$(ev '[.[] | select(.harness == "copilot") | .native_session_id] | unique | length')" 1
check "copilot store: exactly one session" eq "$(find "$HOME_DIR/.copilot/session-state" -name events.jsonl | wc -l | tr -d ' ')" 1
check "ledger: no packet or system prompt imported" eq "$(ev --arg m "$PACKET_MARKER" '[.[] | select(.content | contains($m))] | length')" 0

# Packets: Codex got Copilot's turns; the resumed Copilot got Codex's turn only.
codex_pkt=$(log_slice copilot2 codex1 | jq -c 'select(.method == "POST")' | packet_text)
check "mock: codex's requests carry the packet with copilot's turns" grep -qF "hello RUN_TOOL" <<<"$codex_pkt"
cp_pkt=$(log_slice codex1 copilot3 | jq -c 'select(.method == "POST")' | packet_text)
check "mock: resumed copilot's requests carry the packet with codex's turn" grep -qF "next RUN_TOOL" <<<"$cp_pkt"
check "mock: copilot's packet does not repeat copilot's own turns" bash -c '! grep -qF "hello RUN_TOOL" <<<"$1"' _ "$cp_pkt"
check "mock: copilot's first runs carried no packet" eq "$(log_slice start copilot2 | grep -cF -- "$PACKET_MARKER" || true)" 0
check "mock: no phone-home attempt" eq "$(grep -c '"phone_home":true' "$MOCK_LOG" || true)" 0
acc_finish
