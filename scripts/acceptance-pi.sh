#!/usr/bin/env bash
# Acceptance: `ai-memory run pi` end to end with the real Pi (PI_VERSION in
# lib/realclis-pi.sh, override with AI_MEMORY_ACCEPTANCE_PI_VERSION) and the
# real Codex against the mock model. In one throwaway repo:
#   1. ai-memory run pi -p "hello RUN_TOOL"          (fresh, tool call)
#   2. ai-memory run pi -p "again"                    (resumes session 1)
#   3. ai-memory run codex exec ... "next RUN_TOOL"   (handoff pi -> codex)
#   4. ai-memory run pi -p "back"                     (handoff codex -> pi, resumed)
#   5. ai-memory run pi in tmux, "tui RUN_TOOL", /quit (interactive round)
# and checks the ledger order, one native Pi session, and that each packet
# reached the model with exactly the other harness's events.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

acc_setup
pibin=$(rig_pi_bin "$PI_VERSION") || { echo "SKIP: acceptance-pi needs pi (see the SKIP line above)"; exit 0; }
if ((HAVE_CODEX == 0)); then
	echo "SKIP: acceptance-pi needs codex (see SKIP lines above)"
	exit 0
fi
rig_seed_pi "$HOME_DIR"
rig_env "$HOME_DIR" "$(dirname "$AIM")" "$pibin" "$(rig_codex_bin "$CODEX_VERSION")"
RIG_ENV+=("AI_MEMORY_HOME=$RIG_TMP/amdata")
rig_pi_env

log_mark start
aim_step pi-1 "TOOL_DONE: hello | ACK: hello RUN_TOOL" run pi -p "hello RUN_TOOL" || true
aim_step pi-2 "ACK: again" run pi -p "again" || true
log_mark pi2
aim_step codex-1 "TOOL_DONE: hello | ACK: next RUN_TOOL" \
	run codex exec --skip-git-repo-check "next RUN_TOOL" || true
log_mark codex1
aim_step pi-3 "ACK: back" run pi -p "back" || true
log_mark pi3

# Interactive round in tmux.
if rig_need_tmux; then
	rig_tmux_shell pi-tui "$REPO" || acc_finish
	rig_tmux send-keys -t pi-tui "$AIM run pi" Enter
	if rig_tmux_wait pi-tui 'mock-model' 60; then
		rig_tmux_type pi-tui "tui RUN_TOOL" || fail "pi-tui: typed text was not echoed"
		check "pi-tui: answer visible" rig_tmux_wait pi-tui 'TOOL_DONE: hello \| ACK: tui RUN_TOOL' 60
		rig_tmux_type pi-tui "/quit" || fail "pi-tui: /quit was not echoed"
		check "pi-tui: ai-memory returned to the shell" rig_tmux_wait pi-tui 'saved [0-9]+ new event' 60
	else
		fail "pi-tui: no prompt: $(rig_tmux capture-pane -p -t pi-tui | tail -n 5 | tr '\n' ' ')"
	fi
else
	fail "pi-tui: tmux is required"
fi

acc_events || acc_finish
s1=$(first_seq pi message "hello RUN_TOOL")
s1c=$(first_seq pi tool_call "echo hello")
s1r=$(first_seq pi tool_result "hello")
s1a=$(first_seq pi message "TOOL_DONE: hello | ACK: hello RUN_TOOL")
s2=$(first_seq pi message "again")
s3=$(first_seq codex message "next RUN_TOOL")
s4=$(first_seq pi message "back")
s5=$(first_seq pi message "tui RUN_TOOL")
check "ledger: pi prompt, tool call, tool result, answer in order" ordered "$s1" "$s1c" "$s1r" "$s1a"
check "ledger: pi 1 < pi 2 < codex < pi 3 < pi tui" ordered "$s1a" "$s2" "$s3" "$s4" "$s5"
check "ledger: each prompt imported exactly once" eq \
	"$(count_exact pi message "hello RUN_TOOL")/$(count_exact pi message again)/$(count_exact codex message "next RUN_TOOL")/$(count_exact pi message back)/$(count_exact pi message "tui RUN_TOOL")" \
	"1/1/1/1/1"
check "ledger: one native pi session across all pi runs" eq \
	"$(ev '[.[] | select(.harness == "pi") | .native_session_id] | unique | length')" 1
check "pi store: exactly one session file" eq "$(find "$HOME_DIR/.pi/agent/sessions" -name '*.jsonl' | wc -l | tr -d ' ')" 1
check "ledger: no packet or system prompt imported" eq "$(ev --arg m "$PACKET_MARKER" '[.[] | select(.content | contains($m))] | length')" 0

# Packets: Codex got Pi's turns; the resumed Pi got Codex's turn only.
codex_pkt=$(log_slice pi2 codex1 | jq -c 'select(.method == "POST")' | packet_text)
check "mock: codex's requests carry the packet with pi's turns" grep -qF "hello RUN_TOOL" <<<"$codex_pkt"
pi_pkt=$(log_slice codex1 pi3 | jq -c 'select(.method == "POST")' | packet_text)
check "mock: resumed pi's requests carry the packet with codex's turn" grep -qF "next RUN_TOOL" <<<"$pi_pkt"
check "mock: pi's packet does not repeat pi's own turns" bash -c '! grep -qF "hello RUN_TOOL" <<<"$1"' _ "$pi_pkt"
check "mock: pi's first runs carried no packet" eq "$(log_slice start pi2 | grep -cF -- "$PACKET_MARKER" || true)" 0
acc_finish
