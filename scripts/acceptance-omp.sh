#!/usr/bin/env bash
# Acceptance: `ai-memory run omp` end to end with the real oh-my-pi
# (OMP_VERSION in lib/realclis-omp.sh, override with
# AI_MEMORY_ACCEPTANCE_OMP_VERSION) and the real Claude Code against the
# mock model. In one throwaway repo:
#   1. ai-memory run omp -p "hello RUN_TOOL"           (fresh, tool call)
#   2. ai-memory run omp -p "again"                    (resumes session 1)
#   3. ai-memory run claude -p "next RUN_TOOL" ...     (handoff omp -> claude)
#   4. ai-memory run omp -p "back"                     (handoff claude -> omp, resumed)
#   5. ai-memory run omp in tmux, "tui RUN_TOOL", /quit (interactive round)
# and checks the ledger order, one native OMP session and that each packet
# reached the model with exactly the other harness's events. OMP asks
# catalog.stencil.so for a model catalog on every run; the proxy refuses it.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

acc_setup
ompbin=$(rig_omp_bin "$OMP_VERSION") || { echo "SKIP: acceptance-omp needs omp (see the SKIP line above)"; exit 0; }
if ((HAVE_CLAUDE == 0)); then
	echo "SKIP: acceptance-omp needs claude (see SKIP lines above)"
	exit 0
fi
rig_seed_omp "$HOME_DIR"
rig_env "$HOME_DIR" "$(dirname "$AIM")" "$ompbin" "$(rig_claude_bin "$ACC_CLAUDE_VERSION")"
RIG_ENV+=("AI_MEMORY_HOME=$RIG_TMP/amdata")

log_mark start
aim_step omp-1 "TOOL_DONE: hello | ACK: hello RUN_TOOL" run omp -p "hello RUN_TOOL" || true
aim_step omp-2 "ACK: again" run omp -p "again" || true
log_mark omp2
aim_step claude-1 "TOOL_DONE: hello | ACK: next RUN_TOOL" \
	run claude -p "next RUN_TOOL" --dangerously-skip-permissions || true
log_mark claude1
aim_step omp-3 "ACK: back" run omp -p "back" || true
log_mark omp3

# Interactive round in tmux.
if rig_need_tmux; then
	rig_tmux_shell omp-tui "$REPO" || acc_finish
	rig_tmux send-keys -t omp-tui "$AIM run omp" Enter
	if rig_tmux_wait omp-tui 'mock-model|Mock Model' 120; then
		sleep 2
		rig_tmux_type omp-tui "tui RUN_TOOL" || fail "omp-tui: typed text was not echoed"
		check "omp-tui: answer visible" rig_tmux_wait omp-tui 'TOOL_DONE: hello \| ACK: tui RUN_TOOL' 90
		rig_tmux_type omp-tui "/quit" || fail "omp-tui: /quit was not echoed"
		check "omp-tui: ai-memory returned to the shell" rig_tmux_wait omp-tui 'saved [0-9]+ new event' 60
	else
		fail "omp-tui: no prompt: $(rig_tmux capture-pane -p -t omp-tui | tail -n 8 | tr '\n' ' ')"
	fi
else
	fail "omp-tui: tmux is required"
fi

acc_events || acc_finish
s1=$(first_seq omp message "hello RUN_TOOL")
s1c=$(first_seq omp tool_call "echo hello")
s1r=$(first_seq omp tool_result "hello")
s1a=$(first_seq omp message "TOOL_DONE: hello | ACK: hello RUN_TOOL")
s2=$(first_seq omp message "again")
s3=$(first_seq claude message "next RUN_TOOL")
s4=$(first_seq omp message "back")
s5=$(first_seq omp message "tui RUN_TOOL")
check "ledger: omp prompt, tool call, tool result, answer in order" ordered "$s1" "$s1c" "$s1r" "$s1a"
check "ledger: omp 1 < omp 2 < claude < omp 3 < omp tui" ordered "$s1a" "$s2" "$s3" "$s4" "$s5"
check "ledger: each prompt imported exactly once" eq \
	"$(count_exact omp message "hello RUN_TOOL")/$(count_exact omp message again)/$(count_exact claude message "next RUN_TOOL")/$(count_exact omp message back)/$(count_exact omp message "tui RUN_TOOL")" \
	"1/1/1/1/1"
check "ledger: one native omp session across all omp runs" eq \
	"$(ev '[.[] | select(.harness == "omp") | .native_session_id] | unique | length')" 1
check "omp store: exactly one session file" eq "$(find "$HOME_DIR/.omp/agent/sessions" -name '*.jsonl' | wc -l | tr -d ' ')" 1
check "ledger: no packet imported" eq "$(ev --arg m "$PACKET_MARKER" '[.[] | select(.content | contains($m))] | length')" 0

claude_pkt=$(log_slice omp2 claude1 | jq -c 'select(.method == "POST")' | packet_text)
check "mock: claude's requests carry the packet with omp's turns" grep -qF "hello RUN_TOOL" <<<"$claude_pkt"
omp_pkt=$(log_slice claude1 omp3 | jq -c 'select(.method == "POST")' | packet_text)
check "mock: resumed omp's requests carry the packet with claude's turn" grep -qF "next RUN_TOOL" <<<"$omp_pkt"
check "mock: omp's packet does not repeat omp's own turns" bash -c '! grep -qF "hello RUN_TOOL" <<<"$1"' _ "$omp_pkt"
check "mock: omp's first runs carried no packet" eq "$(log_slice start omp2 | grep -cF -- "$PACKET_MARKER" || true)" 0
# OMP looks up its model catalog and keyless providers' models on every
# run (no switch found); anything else refused would be new phone-home.
check "mock: refused outbound requests are only OMP's catalog lookups" eq \
	"$(jq -r 'select(.phone_home == true) | .host' "$MOCK_LOG" | grep -vcE '^(catalog\.stencil\.so|coding-intl\.dashscope\.aliyuncs\.com|hyper\.charm\.land|api\.commandcode\.ai|api\.kilo\.ai|api\.venice\.ai|zenmux\.ai):443$' || true)" 0
acc_finish
