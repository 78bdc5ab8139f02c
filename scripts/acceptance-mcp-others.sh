#!/usr/bin/env bash
# Acceptance: the memory as MCP tools (docs/mcp.md) in the real OpenCode
# (OPENCODE_CONFIG_CONTENT mcp) and Pi 1.x (per-run extension) against the
# mock model, with Codex's history. In one throwaway repo:
#   1. ai-memory run codex exec "codex note ZEBRAWORD"
#   2. ai-memory run opencode run 'CALL_TOOL ai-memory_search {}'
#      (OpenCode 1.18.33 hands `run`'s message to the model JSON-quoted,
#      so the arguments stay empty: the newest events, Codex's among them)
#   3. ai-memory run pi -p 'CALL_TOOL search {"query":"ZEBRAWORD"}'
#   4. ai-memory run qwen -p 'CALL_TOOL search {"query":"ZEBRAWORD"}'
#      (--mcp-config, trusted: no --yolo needed)
#   5. ai-memory run copilot -p 'CALL_TOOL ai-memory-search {…}' -s
#      (--additional-mcp-config + --allow-tool=ai-memory)
# and checks, from the mock's request log, that each offered the tools
# under its own names and that the tool result holding Codex's event
# reached the model; user configs unchanged; no phone-home.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

acc_setup
if ((HAVE_CODEX == 0)); then
	echo "SKIP: acceptance-mcp-others needs codex (see SKIP lines above)"
	exit 0
fi
ocbin=$(rig_opencode_bin "$OPENCODE_VERSION") || ocbin=
pibin=$(rig_pi_bin "$PI_VERSION") || pibin=
qwbin=$(rig_qwen_bin "$QWEN_VERSION") || qwbin=
cpbin=$(rig_copilot_bin "$COPILOT_VERSION") || cpbin=
if [[ -z $ocbin && -z $pibin && -z $qwbin && -z $cpbin ]]; then
	echo "SKIP: acceptance-mcp-others needs opencode, pi, qwen or copilot (see SKIP lines above)"
	exit 0
fi
rig_seed_pi "$HOME_DIR"
rig_env "$HOME_DIR" "$(dirname "$AIM")" ${ocbin:+"$ocbin"} ${pibin:+"$pibin"} ${qwbin:+"$qwbin"} \
	${cpbin:+"$cpbin"} "$(rig_codex_bin "$CODEX_VERSION")"
RIG_ENV+=("AI_MEMORY_HOME=$RIG_TMP/amdata")
rig_pi_env
[[ -z $qwbin ]] || { rig_seed_qwen "$HOME_DIR" && rig_qwen_env; }
[[ -z $cpbin ]] || { rig_seed_copilot "$HOME_DIR" "$REPO" && rig_copilot_env; }
[[ -z $ocbin ]] || { rig_seed_opencode "$HOME_DIR" "$OPENCODE_VERSION" && rig_opencode_env "$HOME_DIR"; }

user_configs() {
	local f
	for f in "$HOME_DIR/.config/opencode/opencode.json" "$HOME_DIR/.pi/agent/settings.json" \
		"$HOME_DIR/.pi/agent/mcp.json" "$REPO/.pi/mcp.json" "$REPO/opencode.json" "$HOME_DIR/.codex/config.toml" \
		"$HOME_DIR/.qwen/settings.json" "$HOME_DIR/.copilot/settings.json" "$HOME_DIR/.copilot/mcp-config.json"; do
		if [[ -f $f ]]; then sha256sum "$f"; else echo "missing $f"; fi
	done
}
# (Copilot stamps its own state file ~/.copilot/config.json on first launch;
# its servers and settings live in mcp-config.json and settings.json.)
configs_before=$(user_configs)

# tool_names: the tool names one request (stdin) offers (any wire).
tool_names() {
	jq -r '.body.tools[]? | if .type == "namespace" then (.name as $ns | .tools[] | "\($ns)__\(.name)") else (.name // .function.name // empty) end'
}
offers() { all_lines sh -c "$(declare -f tool_names); tool_names | grep -qxF '$1'"; }
# last_tool_output: the text of the last tool result in the last request on
# stdin (Chat Completions tool message or Responses function_call_output).
last_tool_output() {
	tail -n 1 | jq -r 'def texts: if type == "string" then . else (.[]? | .text? // empty) end;
		[(.body.messages[-1]? | select(.role == "tool") | .content | texts),
		 (.body.input[-1]? | select(.type == "function_call_output") | .output | texts)] | join("\n")'
}
has_hit() {
	grep '^{' | jq -se --arg h "$1" --arg w "$2" \
		'[.[] | .hits[]? | select(.harness == $h and (.excerpt | contains($w)))] | length > 0' >/dev/null
}
# agent_requests FROM TO: model requests between two marks that offer tools
# (OpenCode's title generator offers none).
agent_requests() { log_slice "$1" "$2" | jq -c 'select(.method == "POST" and ((.body.tools // []) | length > 0))'; }

aim_step codex-note "ACK: codex note ZEBRAWORD" \
	run codex exec --skip-git-repo-check "codex note ZEBRAWORD" || true
log_mark codex
if [[ -n $ocbin ]]; then
	aim_step opencode-call "TOOL_DONE: " run opencode run 'CALL_TOOL ai-memory_search {}' || true
	log_mark opencode
	reqs=$(agent_requests codex opencode)
	check "mock: opencode's requests offer ai-memory_search" offers ai-memory_search <<<"$reqs"
	check "mock: opencode's search result holds codex's earlier event" has_hit codex ZEBRAWORD <<<"$(last_tool_output <<<"$reqs")"
else
	log_mark opencode
fi
if [[ -n $pibin ]]; then
	aim_step pi-call "TOOL_DONE: " run pi -p 'CALL_TOOL search {"query":"ZEBRAWORD"}' || true
	log_mark pi
	reqs=$(agent_requests opencode pi)
	check "mock: pi's requests offer mcp__ai_memory__search" offers mcp__ai_memory__search <<<"$reqs"
	check "mock: pi's search result holds codex's earlier event" has_hit codex ZEBRAWORD <<<"$(last_tool_output <<<"$reqs")"
else
	log_mark pi
fi
if [[ -n $qwbin ]]; then
	aim_step qwen-call "TOOL_DONE: " run qwen -p 'CALL_TOOL search {"query":"ZEBRAWORD"}' || true
	log_mark qwen
	reqs=$(agent_requests pi qwen)
	check "mock: qwen's requests offer mcp__ai-memory__search" offers mcp__ai-memory__search <<<"$reqs"
	check "mock: qwen's search result holds codex's earlier event" has_hit codex ZEBRAWORD <<<"$(last_tool_output <<<"$reqs")"
else
	log_mark qwen
fi
if [[ -n $cpbin ]]; then
	aim_step copilot-call "TOOL_DONE: " run copilot -p 'CALL_TOOL ai-memory-search {"query":"ZEBRAWORD"}' -s || true
	log_mark copilot
	reqs=$(agent_requests qwen copilot)
	check "mock: copilot's requests offer ai-memory-search" offers ai-memory-search <<<"$reqs"
	check "mock: copilot's search result holds codex's earlier event" has_hit codex ZEBRAWORD <<<"$(last_tool_output <<<"$reqs")"
fi

check "user configs unchanged (checksums)" eq "$(user_configs)" "$configs_before"
check "repo: nothing written but the session index (no MCP config)" eq \
	"$(cd "$REPO" && git status --porcelain --ignored -- . ':!.agent-sessions' | wc -l | tr -d ' ')" 0
check "mock: no phone-home attempts" eq "$(grep -c '"phone_home":true' "$MOCK_LOG" || true)" 0

acc_finish
