#!/usr/bin/env bash
# Acceptance: `ai-memory run kimi` end to end with the real Kimi Code
# (KIMI_VERSION in lib/realclis-kimi.sh) and the real Codex against the mock
# model. In one throwaway repo:
#   1. ai-memory run kimi -p "hello RUN_TOOL"          (fresh, tool call)
#   2. ai-memory run kimi -p "again"                    (resumes session 1)
#   3. ai-memory run codex exec ... "next RUN_TOOL"     (handoff kimi -> codex)
#   4. ai-memory run kimi -p "back"                     (resumed: Kimi takes no
#      extra context there, so no packet, one notice)
#   5. ai-memory run --fresh kimi -p "fresh back"       (handoff codex -> kimi
#      through --agent-file)
#   6. ai-memory run kimi --yolo in tmux, "tui RUN_TOOL", /exit (resumes 5)
# and checks the ledger order, the native sessions, and where packets went.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

acc_setup
kbin=$(rig_kimi_bin "$KIMI_VERSION") || { echo "SKIP: acceptance-kimi needs kimi (see the SKIP line above)"; exit 0; }
if ((HAVE_CODEX == 0)); then
	echo "SKIP: acceptance-kimi needs codex (see SKIP lines above)"
	exit 0
fi
rig_seed_kimi "$HOME_DIR" "$REPO"
rig_env "$HOME_DIR" "$(dirname "$AIM")" "$kbin" "$(rig_codex_bin "$CODEX_VERSION")"
RIG_ENV+=("AI_MEMORY_HOME=$RIG_TMP/amdata")
rig_kimi_env

log_mark start
aim_step kimi-1 "TOOL_DONE: hello | ACK: hello RUN_TOOL" run kimi -p "hello RUN_TOOL" || true
aim_step kimi-2 "ACK: again" run kimi -p "again" || true
log_mark kimi2
aim_step codex-1 "TOOL_DONE: hello | ACK: next RUN_TOOL" \
	run codex exec --skip-git-repo-check "next RUN_TOOL" || true
log_mark codex1
aim_step kimi-3 "ACK: back" run kimi -p "back" || true
check "kimi-3: the resumed run says where the history is" grep -qF "ai-memory workstream-search" "$RIG_TMP/kimi-3.out"
log_mark kimi3
aim_step kimi-4 "ACK: fresh back" run --fresh kimi -p "fresh back" || true
log_mark kimi4

# Interactive round in tmux: resumes the fresh session of step 5.
if rig_need_tmux; then
	rig_tmux_shell kimi-tui "$REPO" || acc_finish
	rig_tmux send-keys -t kimi-tui "$AIM run kimi --yolo" Enter
	if rig_tmux_wait kimi-tui 'mock-model' 60; then
		rig_tmux_type kimi-tui "tui RUN_TOOL" || fail "kimi-tui: typed text was not echoed"
		check "kimi-tui: answer visible" rig_tmux_wait kimi-tui 'TOOL_DONE: hello \| ACK: tui RUN_TOOL' 60
		rig_tmux_type kimi-tui "/exit" || fail "kimi-tui: /exit was not echoed"
		check "kimi-tui: ai-memory returned to the shell" rig_tmux_wait kimi-tui 'saved [0-9]+ new event' 60
	else
		fail "kimi-tui: no prompt: $(rig_tmux capture-pane -p -t kimi-tui | tail -n 5 | tr '\n' ' ')"
	fi
else
	fail "kimi-tui: tmux is required"
fi

acc_events || acc_finish
s1=$(first_seq kimi message "hello RUN_TOOL")
s1c=$(first_seq kimi tool_call "echo hello")
s1r=$(first_seq kimi tool_result "hello")
s1a=$(first_seq kimi message "TOOL_DONE: hello | ACK: hello RUN_TOOL")
s2=$(first_seq kimi message "again")
s3=$(first_seq codex message "next RUN_TOOL")
s4=$(first_seq kimi message "back")
s5=$(first_seq kimi message "fresh back")
s6=$(first_seq kimi message "tui RUN_TOOL")
check "ledger: kimi prompt, tool call, tool result, answer in order" ordered "$s1" "$s1c" "$s1r" "$s1a"
check "ledger: kimi 1 < kimi 2 < codex < kimi 3 < kimi fresh < kimi tui" ordered "$s1a" "$s2" "$s3" "$s4" "$s5" "$s6"
check "ledger: each prompt imported exactly once" eq \
	"$(count_exact kimi message "hello RUN_TOOL")/$(count_exact kimi message again)/$(count_exact codex message "next RUN_TOOL")/$(count_exact kimi message back)/$(count_exact kimi message "fresh back")/$(count_exact kimi message "tui RUN_TOOL")" \
	"1/1/1/1/1/1"
check "ledger: runs 1-4 share one native session, --fresh and the TUI another" eq \
	"$(session_of kimi "hello RUN_TOOL")/$(session_of kimi "fresh back")" "$(session_of kimi back)/$(session_of kimi "tui RUN_TOOL")"
check "kimi store: exactly two sessions" eq "$(find "$HOME_DIR/.kimi-code/sessions" -name wire.jsonl -path '*/agents/main/*' | wc -l | tr -d ' ')" 2
check "ledger: no packet or system prompt imported" eq "$(ev --arg m "$PACKET_MARKER" '[.[] | select(.content | contains($m))] | length')" 0

codex_pkt=$(log_slice kimi2 codex1 | jq -c 'select(.method == "POST")' | packet_text)
check "mock: codex's requests carry the packet with kimi's turns" grep -qF "hello RUN_TOOL" <<<"$codex_pkt"
check "mock: the resumed kimi run carried no packet" eq "$(log_slice codex1 kimi3 | grep -cF -- "$PACKET_MARKER" || true)" 0
k_pkt=$(log_slice kimi3 kimi4 | jq -c 'select(.method == "POST")' | packet_text)
check "mock: the fresh kimi's requests carry the packet with codex's turn" grep -qF "next RUN_TOOL" <<<"$k_pkt"
check "mock: the fresh kimi kept Kimi's default prompt" grep -qF "You are Kimi Code" <<<"$k_pkt"
check "mock: kimi's first runs carried no packet" eq "$(log_slice start kimi2 | grep -cF -- "$PACKET_MARKER" || true)" 0
check "mock: no phone-home attempt" eq "$(grep -c '"phone_home":true' "$MOCK_LOG" || true)" 0
acc_finish
