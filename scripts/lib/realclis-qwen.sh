# shellcheck shell=bash
# Qwen Code rig (sourced by realclis.sh): the pinned release, Node 22 (Qwen
# 0.24 declares engines.node >= 22; npm on Node 20 would silently pick
# 0.15.10), the mock provider settings and the store layout. See
# docs/testing.md and docs/harnesses.md "Qwen Code".
QWEN_VERSIONS="0.24.4"
QWEN_VERSION=${AI_MEMORY_ACCEPTANCE_QWEN_VERSION:-${QWEN_VERSIONS##* }}

# rig_qwen_bin VERSION prints the PATH prefix for that Qwen: its bin dir,
# then Node 22 (npm itself runs under Node 22 for the install).
rig_qwen_bin() {
	local node dir
	node=$(rig_node22_bin) || return 1
	dir=$(PATH="$node:$PATH" rig_install qwen @qwen-code/qwen-code "$1") || return 1
	# The vendored ripgrep is unpacked without its execute bit; Qwen falls
	# back to its own grep with a warning on every start.
	chmod +x "$dir"/node_modules/@qwen-code/qwen-code/vendor/ripgrep/*/rg 2>/dev/null || true
	echo "$dir/node_modules/.bin:$node"
}

# rig_seed_qwen HOME writes ~/.qwen/settings.json: OpenAI-compatible auth
# against the mock (see rig_qwen_env), no folder-trust dialog, no update
# check, usage statistics, telemetry or managed auto-memory (an extra model
# request after every turn), and the keys the TUI writes back on its first
# start (so the file stays byte-identical and no notice appears).
rig_seed_qwen() {
	mkdir -p "$1/.qwen"
	chmod 700 "$1/.qwen"
	cat >"$1/.qwen/settings.json" <<'JSON'
{
  "security": { "auth": { "selectedType": "openai" }, "folderTrust": { "enabled": false } },
  "model": { "name": "mock-model" },
  "general": { "enableAutoUpdate": false },
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false },
  "memory": { "enableManagedAutoMemory": false, "enableManagedAutoDream": false },
  "ui": { "autoModeAcknowledged": true },
  "$version": 4
}
JSON
	chmod 600 "$1/.qwen/settings.json"
}

# rig_qwen_env adds Qwen's variables to RIG_ENV (after rig_env): the mock
# as the OpenAI-compatible endpoint, and no stderr warning for --yolo.
rig_qwen_env() {
	RIG_ENV+=("OPENAI_API_KEY=mock-key" "OPENAI_BASE_URL=$MOCK_URL/v1" "OPENAI_MODEL=mock-model"
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1")
}

# rig_qwen_transcript HOME REPO [ID] prints the chat file of ID (the newest
# of REPO's project without one): ~/.qwen/projects/<cwd, non-alphanumerics
# as '-'>/chats/<id>.jsonl.
rig_qwen_transcript() {
	local dir
	dir="$1/.qwen/projects/$(printf %s "$2" | sed 's/[^A-Za-z0-9]/-/g')/chats"
	if [[ -n ${3:-} ]]; then
		echo "$dir/$3.jsonl"
	else
		ls -t "$dir"/*.jsonl 2>/dev/null | head -1
	fi
}
