# shellcheck shell=bash
# oh-my-pi rig (sourced by realclis.sh): the pinned release, Bun from the
# npm registry, the mock provider config and the store layout. See
# docs/testing.md and docs/harnesses.md "oh-my-pi".
#
# OMP 18.3.4 does not install from the registry this rig reaches (its
# @oh-my-pi/*@18.3.4 siblings are not served: notarget); 18.2.3 is the
# newest complete set. Its `omp` is `#!/usr/bin/env bun` (engines.bun
# >= 1.3.14): npm `bun` ships the binary in its platform optional
# dependency (@oven/bun-linux-x64).
OMP_VERSIONS="18.2.3"
OMP_VERSION=${AI_MEMORY_ACCEPTANCE_OMP_VERSION:-${OMP_VERSIONS##* }}
RIG_BUN_VERSION=1.4.5

# rig_bun_bin prints the bin dir of a Bun installed from npm.
rig_bun_bin() {
	local dir="$RIG_CACHE/bun-$RIG_BUN_VERSION"
	mkdir -p "$RIG_CACHE"
	(
		flock 9
		[[ -f $dir/.installed ]] && exit 0
		npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
			"bun@$RIG_BUN_VERSION" >"$dir.install.log" 2>&1 || exit 1
		local exe
		# bun's postinstall (when npm runs it) moves the binary from the
		# platform package to bun/bin/bun.exe; without it, it stays there.
		exe=$(ls "$dir"/node_modules/bun/bin/bun.exe "$dir"/node_modules/@oven/bun-linux-*/bin/bun 2>/dev/null | head -1)
		[[ -x $exe ]] || exit 1
		mkdir -p "$dir/bin" && ln -sf "$exe" "$dir/bin/bun"
		"$dir/bin/bun" --version >>"$dir.install.log" 2>&1 || exit 1
		touch "$dir/.installed"
	) 9>"$dir.lock"
	[[ -f $dir/.installed ]] || { echo "SKIP: Bun could not be installed from npm: see $dir.install.log" >&2; return 1; }
	echo "$dir/bin"
}

# rig_omp_bin VERSION prints the PATH prefix for that OMP (its bin dir, then Bun).
rig_omp_bin() {
	local bun dir
	bun=$(rig_bun_bin) || return 1
	dir=$(PATH="$bun:$PATH" rig_install omp @oh-my-pi/pi-coding-agent "$1") || return 1
	echo "$dir/node_modules/.bin:$bun"
}

# rig_seed_omp HOME writes the mock provider (chat completions) and the
# settings: default model, keyless providers that probe the network or
# loopback ports disabled (and anthropic: the rig sets a dummy
# ANTHROPIC_API_KEY for Claude, which OMP would use to list models), no
# update check, no setup wizard (it eats the TUI's first keys).
rig_seed_omp() {
	local agent="$1/.omp/agent"
	mkdir -p "$agent"
	chmod 700 "$1/.omp" "$agent"
	cat >"$agent/models.yml" <<YAML
providers:
  mock:
    baseUrl: $MOCK_URL/v1
    api: openai-completions
    apiKey: mock-key
    compat:
      supportsDeveloperRole: false
      supportsReasoningEffort: false
    models:
      - id: mock-model
        name: Mock Model
        reasoning: false
        input: [text]
        contextWindow: 128000
        maxTokens: 4096
YAML
	cat >"$agent/config.yml" <<'YAML'
modelRoles:
  default: mock/mock-model
disabledProviders: [charm-hyper, ollama, llama.cpp, lm-studio, anthropic]
startup:
  checkUpdate: false
  quiet: true
  setupWizard: false
YAML
}

# rig_omp_transcript HOME [ID] prints the session file of ID (the newest
# without one) anywhere under the sessions dir.
rig_omp_transcript() {
	if [[ -n ${2:-} ]]; then
		find "$1/.omp/agent/sessions" -name "*_$2.jsonl" -print -quit 2>/dev/null
	else
		ls -t "$1"/.omp/agent/sessions/*/*.jsonl 2>/dev/null | head -1
	fi
}

# rig_omp_session_id FILE prints the id in an OMP session header (line 2;
# line 1 is the rewritable title record).
rig_omp_session_id() { jq -r 'select(.type == "session") | .id' "$1" | head -1; }
