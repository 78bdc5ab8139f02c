#!/usr/bin/env bash
# Acceptance: the memory as MCP tools inside real managed agents
# (docs/mcp.md), with the real Claude Code and Codex CLIs against the mock
# model. In one throwaway repo:
#   1. ai-memory run codex exec "codex note ZEBRAWORD"
#   2. ai-memory run claude -p "claude note GIRAFFEWORD"
#   3. ai-memory run claude -p 'CALL_TOOL search {"query":"ZEBRAWORD"}'
#   4. ai-memory run codex exec 'CALL_TOOL search {"query":"GIRAFFEWORD"}'
#   5. ai-memory run --no-mcp --fresh claude -p "plain" (fresh: Claude Code
#      re-declares the tools a resumed session recorded, server or not)
# and checks, from the mock's request log, that runs 1-4 offered the
# ai-memory tools under each harness's own names, that the search tool's
# result reached the model holding the other harness's earlier event, that
# run 5 offered none, that user configs are unchanged (nothing registered
# there) and that nothing phoned home.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

acc_setup
if ((HAVE_CLAUDE == 0 || HAVE_CODEX == 0)); then
	echo "SKIP: acceptance-mcp needs both claude and codex (see SKIP lines above)"
	exit 0
fi

# user_configs prints a checksum line per user-level config file that an MCP
# registration could land in (a missing file prints "missing").
user_configs() {
	local f
	for f in "$HOME_DIR/.codex/config.toml" "$HOME_DIR/.claude/settings.json" \
		"$HOME_DIR/.claude/settings.local.json" "$REPO/.mcp.json" "$REPO/.claude/settings.json" \
		"$REPO/.codex/config.toml"; do
		if [[ -f $f ]]; then sha256sum "$f"; else echo "missing $f"; fi
	done
}
configs_before=$(user_configs)

aim_step codex-note "ACK: codex note ZEBRAWORD" \
	run codex exec --skip-git-repo-check "codex note ZEBRAWORD" || true
aim_step claude-note "ACK: claude note GIRAFFEWORD" \
	run claude -p "claude note GIRAFFEWORD" || true
log_mark claude-call-from
aim_step claude-call "TOOL_DONE: " \
	run claude -p 'CALL_TOOL search {"query":"ZEBRAWORD"}' || true
log_mark claude-call-to
aim_step codex-call "TOOL_DONE: " \
	run codex exec --skip-git-repo-check 'CALL_TOOL search {"query":"GIRAFFEWORD"}' || true
log_mark codex-call-to
aim_step claude-off "ACK: plain" run --no-mcp --fresh claude -p "plain" || true
log_mark claude-off-to

# tool_names: the tool names one request (stdin) offers, Responses
# namespaces flattened to <namespace>__<name>.
tool_names() {
	jq -r '.body.tools[]? | if .type == "namespace" then (.name as $ns | .tools[] | "\($ns)__\(.name)") else (.name // empty) end'
}
# offers TOOL: every model request on stdin offers TOOL.
offers() { all_lines sh -c "$(declare -f tool_names); tool_names | grep -qxF '$1'"; }
# last_tool_output: the text of the last tool result in the last request
# on stdin (Anthropic tool_result or Responses function_call_output).
last_tool_output() {
	tail -n 1 | jq -r 'def texts: if type == "string" then . else (.[]? | .text? // empty) end;
		[(.body.messages[-1].content[]? | select(.type == "tool_result") | .content | texts),
		 (.body.input[-1]? | select(.type == "function_call_output") | .output | texts)] | join("\n")'
}
# has_hit HARNESS WORD: the search output (stdin) has a hit of HARNESS
# whose excerpt holds WORD.
has_hit() {
	grep '^{' | jq -se --arg h "$1" --arg w "$2" \
		'[.[] | .hits[]? | select(.harness == $h and (.excerpt | contains($w)))] | length > 0' >/dev/null
}

claude_reqs=$(log_slice claude-call-from claude-call-to | jq -c 'select(.method == "POST" and (.path | test("/v1/messages$")))')
codex_reqs=$(log_slice claude-call-to codex-call-to | jq -c 'select(.method == "POST" and (.path | test("/responses$")))')
off_reqs=$(log_slice codex-call-to claude-off-to | jq -c 'select(.method == "POST" and (.path | test("/v1/messages$")))')

check "mock: claude's requests offer mcp__ai-memory__search" offers mcp__ai-memory__search <<<"$claude_reqs"
check "mock: codex's requests offer search in namespace mcp__ai_memory" offers mcp__ai_memory__search <<<"$codex_reqs"
claude_out=$(last_tool_output <<<"$claude_reqs")
codex_out=$(last_tool_output <<<"$codex_reqs")
check "mock: claude's search result holds codex's earlier event (ZEBRAWORD)" has_hit codex ZEBRAWORD <<<"$claude_out"
check "mock: codex's search result holds claude's earlier event (GIRAFFEWORD)" has_hit claude GIRAFFEWORD <<<"$codex_out"
check "claude-call: the answer echoes the tool result" grep -qF '"hits"' "$RIG_TMP/claude-call.out"
check "codex-call: the answer echoes the tool result" grep -qF '"hits"' "$RIG_TMP/codex-call.out"
check "mock: --no-mcp offers no ai-memory tool" eq \
	"$(tool_names <<<"$off_reqs" | grep -c 'ai-memory\|ai_memory' || true)" 0
check "mock: the packet names the tool beside the shell command" \
	grep -qF 'call the `mcp__ai-memory__search` tool' <<<"$(log_slice claude-call-from claude-call-to)"

check "user configs unchanged (checksums)" eq "$(user_configs)" "$configs_before"
check "~/.claude.json names no ai-memory server" eq \
	"$(jq '[.. | objects | .mcpServers? // empty | keys[]] | map(select(. == "ai-memory")) | length' "$HOME_DIR/.claude.json")" 0
check "repo: nothing written but the session index (no MCP config)" eq \
	"$(cd "$REPO" && git status --porcelain --ignored -- . ':!.agent-sessions' | wc -l | tr -d ' ')" 0
check "mock: no phone-home attempts" eq "$(grep -c '"phone_home":true' "$MOCK_LOG" || true)" 0

acc_finish
