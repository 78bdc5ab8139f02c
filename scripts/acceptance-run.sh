#!/usr/bin/env bash
# Acceptance: `ai-memory run` end to end with the real Claude Code and Codex
# CLIs against the mock model. In one throwaway repo:
#   1. ai-memory run claude -p "hello RUN_TOOL" --dangerously-skip-permissions
#   2. ai-memory run codex exec --skip-git-repo-check "next RUN_TOOL"
#   3. ai-memory run claude -p "again"
# and checks that the ledger holds both sessions' messages and tool calls in
# order, without duplicates, and that run 3 resumed run 1's native session.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

acc_setup
if ((HAVE_CLAUDE == 0 || HAVE_CODEX == 0)); then
	echo "SKIP: acceptance-run needs both claude and codex (see SKIP lines above)"
	exit 0
fi

aim_step claude-1 "TOOL_DONE: hello | ACK: hello RUN_TOOL" \
	run claude -p "hello RUN_TOOL" --dangerously-skip-permissions || true
aim_step codex-1 "TOOL_DONE: hello | ACK: next RUN_TOOL" \
	run codex exec --skip-git-repo-check "next RUN_TOOL" || true
aim_step claude-2 "ACK: again" run claude -p "again" || true

acc_events || acc_finish
s_prompt1=$(first_seq claude message "hello RUN_TOOL")
s_call1=$(first_seq claude tool_call "echo hello")
s_result1=$(first_seq claude tool_result "hello")
s_answer1=$(first_seq claude message "TOOL_DONE: hello | ACK: hello RUN_TOOL")
s_prompt2=$(first_seq codex message "next RUN_TOOL")
s_call2=$(first_seq codex tool_call "echo hello")
s_result2=$(first_seq codex tool_result "hello")
s_answer2=$(first_seq codex message "TOOL_DONE: hello | ACK: next RUN_TOOL")
s_prompt3=$(first_seq claude message "again")
s_answer3=$(first_seq claude message "ACK: again")

check "ledger: claude prompt, tool call, tool result, answer in order" \
	ordered "$s_prompt1" "$s_call1" "$s_result1" "$s_answer1"
check "ledger: codex prompt, tool call, tool result, answer in order" \
	ordered "$s_prompt2" "$s_call2" "$s_result2" "$s_answer2"
check "ledger: claude run 1 < codex run < claude run 2" \
	ordered "$s_answer1" "$s_prompt2" "$s_answer2" "$s_prompt3" "$s_answer3"
check "ledger: each prompt imported exactly once" eq \
	"$(count_exact claude message "hello RUN_TOOL")/$(count_exact codex message "next RUN_TOOL")/$(count_exact claude message "again")" \
	"1/1/1"
check "ledger: exactly two native sessions" eq \
	"$(ev '[.[].native_session_id] | unique | length')" 2

sid1=$(session_of claude "hello RUN_TOOL")
sid3=$(session_of claude "again")
check "ledger: second claude run continued the first native session" eq "$sid3" "$sid1"
hdr_first=$(model_requests messages | sed -n 1p | claude_session_header)
hdr_last=$(model_requests messages | tail -n 1 | claude_session_header)
check "mock: claude's last request carries the first session id ($hdr_first)" eq "$hdr_last" "$hdr_first"
check "mock: that session id is the one in the ledger" eq "$hdr_first" "$sid1"
transcripts=$(find "$HOME_DIR/.claude/projects" -name '*.jsonl' | wc -l)
transcript=$(rig_claude_transcript "$HOME_DIR" "$REPO" "$sid1")
check "claude store: exactly one transcript file" eq "$transcripts" 1
check "claude store: the first session's transcript grew with run 2" grep -qF "ACK: again" "$transcript"
check "mock: no phone-home attempts" eq "$(grep -c '"phone_home":true' "$MOCK_LOG" || true)" 0

acc_finish
