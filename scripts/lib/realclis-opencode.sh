# shellcheck shell=bash
# OpenCode part of the real-CLI rig, sourced by scripts/lib/realclis.sh.
# Kept in its own file so the rigs of other harnesses can change in parallel.
#
# OpenCode (npm `opencode-ai`) starts a background `npm install` of
# `@opencode-ai/plugin@<version>` into each config dir on every start
# (OPENCODE_PURE=1 does not stop it). rig_opencode_bin installs that package
# once into the cache beside the CLI; rig_seed_opencode copies it into the
# throwaway config dir, so runs stay loopback-only.

OPENCODE_VERSIONS="1.18.33"
OPENCODE_VERSION=${AI_MEMORY_ACCEPTANCE_OPENCODE_VERSION:-${OPENCODE_VERSIONS##* }}

# rig_opencode_bin VERSION prints the bin dir to put on PATH, after making
# sure the plugin seed for that version is in the cache too.
rig_opencode_bin() {
	local ver=$1 dir seed
	dir=$(rig_install opencode opencode-ai "$ver") || return 1
	seed=$(rig_opencode_seed "$ver") || return 1
	[[ -d $seed/node_modules ]] || return 1
	echo "$dir/node_modules/.bin"
}

# rig_opencode_seed VERSION installs @opencode-ai/plugin@VERSION into the
# cache (once) and prints its prefix.
rig_opencode_seed() {
	local ver=$1
	local dir="$RIG_CACHE/opencode-plugin-seed-$ver"
	mkdir -p "$RIG_CACHE"
	(
		flock 9
		[[ -f $dir/.installed ]] && exit 0
		npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
			"@opencode-ai/plugin@$ver" >"$dir.install.log" 2>&1 || exit 1
		touch "$dir/.installed"
	) 9>"$dir.lock"
	if [[ ! -f $dir/.installed ]]; then
		echo "SKIP: opencode plugin seed could not be installed from npm: see $dir.install.log" >&2
		return 1
	fi
	echo "$dir"
}

# rig_seed_opencode HOME VERSION writes $XDG_CONFIG_HOME/opencode/opencode.json
# (the mock provider; autoupdate and sharing off) and copies the plugin seed
# next to it. XDG_* of the run point under HOME (see rig_opencode_env).
rig_seed_opencode() {
	local home=$1 ver=$2 cfg="$1/.config/opencode" seed
	seed=$(rig_opencode_seed "$ver") || return 1
	mkdir -p "$cfg" "$home/.local/share" "$home/.cache" "$home/.local/state"
	chmod 700 "$home/.config" "$cfg"
	cat >"$cfg/opencode.json" <<JSON
{
  "\$schema": "https://opencode.ai/config.json",
  "model": "mock/mock-model",
  "small_model": "mock/mock-model",
  "autoupdate": false,
  "share": "disabled",
  "provider": {
    "mock": {
      "npm": "@ai-sdk/openai-compatible",
      "name": "Mock",
      "options": {"baseURL": "$MOCK_URL/v1", "apiKey": "mock-key"},
      "models": {"mock-model": {"name": "Mock Model", "tool_call": true}}
    }
  }
}
JSON
	chmod 600 "$cfg/opencode.json"
	cp -R "$seed/node_modules" "$cfg/"
	cp "$seed/package.json" "$cfg/"
	[[ -f $seed/package-lock.json ]] && cp "$seed/package-lock.json" "$cfg/"
	return 0
}

# rig_opencode_env HOME appends OpenCode's switches to $RIG_ENV (call after
# rig_env): XDG dirs under HOME, and every phone-home feature off.
rig_opencode_env() {
	local home=$1
	RIG_ENV+=(
		"XDG_CONFIG_HOME=$home/.config" "XDG_DATA_HOME=$home/.local/share"
		"XDG_CACHE_HOME=$home/.cache" "XDG_STATE_HOME=$home/.local/state"
		"OPENCODE_DISABLE_AUTOUPDATE=1" "OPENCODE_DISABLE_MODELS_FETCH=1"
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1" "OPENCODE_DISABLE_DEFAULT_PLUGINS=1"
		"OPENCODE_DISABLE_SHARE=1" "OPENCODE_DISABLE_CLAUDE_CODE=1"
	)
}

# rig_opencode_db HOME prints the path of OpenCode's store.
rig_opencode_db() { echo "$1/.local/share/opencode/opencode.db"; }
