# shellcheck shell=bash
# Gemini CLI part of the real-CLI rig, sourced by scripts/lib/realclis.sh
# (kept in its own file so that other harnesses' rig code merges cleanly).
# Facts: docs/harnesses.md "Gemini CLI", docs/handoff-delivery.md.

GEMINI_VERSIONS="0.61.0"
GEMINI_VERSION=${AI_MEMORY_ACCEPTANCE_GEMINI_VERSION:-${GEMINI_VERSIONS##* }}
RIG_GEMINI_KEY=mock-gemini-key

# rig_gemini_bin VERSION prints the bin dir to put on PATH.
rig_gemini_bin() {
	local dir
	dir=$(rig_install gemini @google/gemini-cli "$1") || return 1
	echo "$dir/node_modules/.bin"
}

# rig_seed_gemini HOME writes ~/.gemini/settings.json: API-key auth against
# the mock, no folder-trust dialog, no update check, no usage statistics or
# telemetry, and no startup session cleanup (it deletes chat files it cannot
# parse, which would race the fixtures).
rig_seed_gemini() {
	local home=$1
	mkdir -p "$home/.gemini"
	chmod 700 "$home/.gemini"
	cat >"$home/.gemini/settings.json" <<'JSON'
{
  "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
  "general": {
    "enableAutoUpdate": false,
    "enableAutoUpdateNotification": false,
    "sessionRetention": {"enabled": false}
  },
  "privacy": {"usageStatisticsEnabled": false},
  "telemetry": {"enabled": false},
  "model": {"name": "gemini-2.5-pro"}
}
JSON
	chmod 600 "$home/.gemini/settings.json"
}

# rig_gemini_env adds Gemini's variables to $RIG_ENV (call after rig_env):
# the mock as the API endpoint (plain http is accepted for localhost only)
# and telemetry off.
rig_gemini_env() {
	RIG_ENV+=(
		"GEMINI_API_KEY=$RIG_GEMINI_KEY" "GOOGLE_GEMINI_BASE_URL=$MOCK_URL"
		"GEMINI_TELEMETRY_ENABLED=0" "GEMINI_CLI_NO_RELAUNCH=true"
	)
}

# rig_gemini_transcript HOME SESSION prints the path of Gemini's chat file:
# ~/.gemini/tmp/<slug>/chats/session-<ts>-<first 8 of the id>.jsonl
rig_gemini_transcript() {
	find "$1/.gemini/tmp" -path '*/chats/*' -name "session-*-${2:0:8}.jsonl" -print -quit 2>/dev/null
}
