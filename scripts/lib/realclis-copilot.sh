# shellcheck shell=bash
# GitHub Copilot CLI rig (sourced by realclis.sh): the pinned release, its
# offline BYOK environment and the store layout. See docs/testing.md.
#
# @github/copilot ships a native binary (no Node needed). On its first run
# in an XDG_CACHE_HOME it extracts ~235 MB of its package there, so the rig
# keeps one such cache beside the install and shares it between throwaway
# HOMEs. COPILOT_OFFLINE=true turns off GitHub auth, telemetry, web tools
# and auto-update; COPILOT_PROVIDER_BASE_URL points the model at the mock.
COPILOT_VERSIONS="1.0.102"
COPILOT_VERSION=${AI_MEMORY_ACCEPTANCE_COPILOT_VERSION:-${COPILOT_VERSIONS##* }}

# rig_copilot_bin VERSION prints the bin dir to put on PATH.
rig_copilot_bin() {
	local dir
	RIG_COPILOT_CACHE="$RIG_CACHE/copilot-xdg-cache"
	mkdir -p "$RIG_COPILOT_CACHE"
	dir=$(XDG_CACHE_HOME=$RIG_COPILOT_CACHE COPILOT_OFFLINE=true rig_install copilot @github/copilot "$1") || return 1
	echo "$dir/node_modules/.bin"
}

# rig_copilot_env adds Copilot's offline BYOK switches to RIG_ENV (after
# rig_env and rig_copilot_bin).
rig_copilot_env() {
	RIG_ENV+=(
		"XDG_CACHE_HOME=$RIG_CACHE/copilot-xdg-cache"
		"COPILOT_OFFLINE=true" "COPILOT_AUTO_UPDATE=false"
		"COPILOT_PROVIDER_BASE_URL=$MOCK_URL/v1" "COPILOT_PROVIDER_TYPE=openai"
		"COPILOT_PROVIDER_WIRE_API=completions" "COPILOT_PROVIDER_API_KEY=mock-key"
		"COPILOT_MODEL=mock-model"
		"COPILOT_PROVIDER_MAX_PROMPT_TOKENS=128000" "COPILOT_PROVIDER_MAX_OUTPUT_TOKENS=4096"
	)
}

# rig_seed_copilot HOME REPO trusts REPO, so the TUI skips its folder-trust
# dialog.
rig_seed_copilot() {
	mkdir -p "$1/.copilot"
	chmod 700 "$1/.copilot"
	printf '{"trustedFolders": ["%s"]}\n' "$2" >"$1/.copilot/config.json"
}

# rig_copilot_transcript HOME [ID] prints events.jsonl of ID (the newest
# session without one).
rig_copilot_transcript() {
	local st="$1/.copilot/session-state"
	if [[ -n ${2:-} ]]; then
		echo "$st/$2/events.jsonl"
	else
		ls -td "$st"/*/ 2>/dev/null | head -1 | sed 's,/$,/events.jsonl,'
	fi
}
