# shellcheck shell=bash
# Command Code rig (sourced by realclis.sh): the pinned release (npm
# command-code) on the Node 22 from npm (it refuses Node < 22), the BYOK
# mock provider and the offline switches. See docs/testing.md.
#
# command-code 1.64.0 bundles its code but not its dependencies, and
# ^1.30.0 of @opentelemetry/semantic-conventions now resolves to a release
# without a default export, which breaks it at import on every Node: the
# tested 1.43.0 is pinned beside it.
COMMANDCODE_VERSIONS="1.64.0"
COMMANDCODE_VERSION=${AI_MEMORY_ACCEPTANCE_COMMANDCODE_VERSION:-${COMMANDCODE_VERSIONS##* }}
COMMANDCODE_PINS="@opentelemetry/semantic-conventions@1.43.0"
# A dummy key: print mode and the TUI demand "authenticated" even in
# local-only BYOK mode, where the key is never sent.
RIG_COMMANDCODE_KEY=cc-mock-key

# rig_commandcode_bin VERSION prints the PATH prefix: its bin dir and Node 22.
rig_commandcode_bin() {
	local ver=$1 node dir
	node=$(rig_node22_bin) || return 1
	dir="$RIG_CACHE/command-code-$ver"
	mkdir -p "$RIG_CACHE"
	(
		flock 9
		[[ -f $dir/.installed ]] && exit 0
		export PATH="$node:$PATH"
		npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
			"command-code@$ver" $COMMANDCODE_PINS >"$dir.install.log" 2>&1 || exit 1
		COMMANDCODE_SKIP_UPDATES=1 HOME="$dir" "$dir/node_modules/.bin/cmd" --version >>"$dir.install.log" 2>&1 || exit 1
		touch "$dir/.installed"
	) 9>"$dir.lock"
	[[ -f $dir/.installed ]] || { echo "SKIP: command-code could not be installed from npm: see $dir.install.log" >&2; return 1; }
	echo "$dir/node_modules/.bin:$node"
}

# rig_seed_commandcode HOME writes the mock provider and the local-only
# config. The TUI's trust question is skipped by -t/--trust (or by an
# existing project folder, which a print run creates).
rig_seed_commandcode() {
	local cc="$1/.commandcode"
	mkdir -p "$cc"
	chmod 700 "$cc"
	cat >"$cc/providers.json" <<JSON
{ "provider": { "mock": {
    "name": "Mock", "api": "openai-completions", "baseURL": "$MOCK_URL/v1", "apiKey": false,
    "models": { "mock-model": { "name": "Mock Model", "contextWindow": 128000, "maxOutput": 4096 } } } } }
JSON
	echo '{ "model": "mock/mock-model", "localOnly": true, "telemetry": false }' >"$cc/config.json"
}

# rig_commandcode_env adds Command Code's offline switches to RIG_ENV.
rig_commandcode_env() {
	RIG_ENV+=("COMMANDCODE_SKIP_UPDATES=1" "DO_NOT_TRACK=1" "COMMAND_CODE_API_KEY=$RIG_COMMANDCODE_KEY")
}

# rig_commandcode_transcript HOME [ID] prints the session file of ID (the
# newest without one).
rig_commandcode_transcript() {
	local p="$1/.commandcode/projects"
	if [[ -n ${2:-} ]]; then
		ls "$p"/*/"$2".jsonl 2>/dev/null | head -1
	else
		ls -t "$p"/*/*.jsonl 2>/dev/null | grep -v -e '\.checkpoints\.jsonl$' | head -1
	fi
}

# rig_commandcode_session_id FILE prints the id in a session header.
rig_commandcode_session_id() { head -1 "$1" | jq -r .id; }
