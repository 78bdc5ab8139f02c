# shellcheck shell=bash
# Real-CLI test rig, sourced by scripts/capture-fixtures.sh and
# scripts/acceptance-*.sh (see docs/testing.md).
#
# It installs pinned Claude Code and Codex releases from npm into a cache
# outside the clone, starts the mock model server (scripts/mockmodel) on
# 127.0.0.1, and builds a throwaway HOME + git repo whose harness configs
# point every request at the mock. Nothing here touches the real HOME.
#
# Call rig_init first: it creates $RIG_TMP and installs an EXIT trap that
# stops the mock and the private tmux server and removes $RIG_TMP
# (kept when AI_MEMORY_ACCEPTANCE_KEEP=1).

# Pinned releases, oldest first. Fixtures are captured from every listed
# version (the readers are golden-tested against at least two of each CLI);
# the acceptance scripts use the newest unless overridden.
CLAUDE_VERSIONS="2.1.197 2.1.332"
CODEX_VERSIONS="0.169.0 0.171.0"
CODEX_VERSION=${AI_MEMORY_ACCEPTANCE_CODEX_VERSION:-${CODEX_VERSIONS##* }}
RIG_CACHE=${AI_MEMORY_ACCEPTANCE_CACHE:-$HOME/.cache/ai-memory/acceptance}
RIG_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# Dummy credentials: the mock accepts anything; these only satisfy the CLIs.
RIG_ANTHROPIC_KEY=sk-ant-api03-mock-0000000000000000000000000000
RIG_CODEX_KEY=mock-key

# shellcheck source=realclis-opencode.sh
source "$RIG_ROOT/scripts/lib/realclis-opencode.sh"

# rig_init creates the scratch dir and the cleanup trap.
rig_init() {
	RIG_TMP=$(mktemp -d "${TMPDIR:-/tmp}/amrig.XXXXXX")
	RIG_TMP=$(cd "$RIG_TMP" && pwd -P)
	chmod 700 "$RIG_TMP"
	mkdir -p "$RIG_TMP/tmp"
	RIG_TMUX_SOCKET="amrig-$$"
	MOCK_PID=
	trap rig_cleanup EXIT
}

rig_cleanup() {
	local rc=$?
	rig_mock_stop
	if [[ -n ${RIG_DROP_DB:-} ]]; then
		psql -X -q "$AI_MEMORY_TEST_POSTGRES" -c "DROP DATABASE IF EXISTS $RIG_DROP_DB WITH (FORCE)" >/dev/null 2>&1 || true
	fi
	if [[ -n ${RIG_TMUX_SOCKET:-} ]] && command -v tmux >/dev/null; then
		tmux -L "$RIG_TMUX_SOCKET" kill-server 2>/dev/null || true
	fi
	if [[ ${AI_MEMORY_ACCEPTANCE_KEEP:-0} == 1 ]]; then
		echo "kept rig files in $RIG_TMP" >&2
	elif [[ -n ${RIG_TMP:-} && -d $RIG_TMP ]]; then
		chmod -R u+w "$RIG_TMP" 2>/dev/null || true
		rm -rf "$RIG_TMP"
	fi
	return $rc
}

# rig_install HARNESS PACKAGE VERSION prints the install prefix. It installs
# only when the success marker is missing; on failure it prints
# "SKIP: <harness> could not be installed from npm: <reason>" to stderr.
rig_install() {
	local harness=$1 pkg=$2 ver=$3
	local dir="$RIG_CACHE/${pkg##*/}-$ver"
	mkdir -p "$RIG_CACHE"
	(
		flock 9
		[[ -f $dir/.installed ]] && exit 0
		npm install --prefix "$dir" --no-audit --no-fund --loglevel=error \
			"$pkg@$ver" >"$dir.install.log" 2>&1 || exit 1
		"$dir/node_modules/.bin/$harness" --version >>"$dir.install.log" 2>&1 || exit 1
		touch "$dir/.installed"
	) 9>"$dir.lock"
	if [[ ! -f $dir/.installed ]]; then
		local reason
		# The most telling npm line: the error code, then the first message.
		reason=$(grep -m1 -E '^npm error (code|[0-9]{3}|notarget|FetchError)' "$dir.install.log" 2>/dev/null)
		reason+=" $(grep -m1 -E '^npm error .*(failed|not found|No matching|reason)' "$dir.install.log" 2>/dev/null)"
		reason=$(echo "$reason" | sed 's/npm error //g; s/  */ /g; s/^ //; s/ $//')
		echo "SKIP: $harness could not be installed from npm: ${reason:-see $dir.install.log}" >&2
		return 1
	fi
	echo "$dir"
}

# rig_claude_bin VERSION / rig_codex_bin VERSION print the bin dir to put on PATH.
rig_claude_bin() {
	local dir
	dir=$(rig_install claude @anthropic-ai/claude-code "$1") || return 1
	echo "$dir/node_modules/.bin"
}

rig_codex_bin() {
	local dir
	dir=$(rig_install codex @openai/codex "$1") || return 1
	echo "$dir/node_modules/.bin"
}

# rig_mock_start builds scripts/mockmodel into $RIG_TMP, starts it and sets
# MOCK_PID, MOCK_PORT, MOCK_URL and MOCK_LOG (JSONL of every request).
rig_mock_start() {
	local bin="$RIG_TMP/mockmodel" portfile="$RIG_TMP/mock.port"
	MOCK_LOG="$RIG_TMP/mock.jsonl"
	(cd "$RIG_ROOT" && go build -o "$bin" ./scripts/mockmodel) || {
		echo "FAIL: could not build scripts/mockmodel" >&2
		return 1
	}
	"$bin" -addr 127.0.0.1:0 -port-file "$portfile" -log "$MOCK_LOG" >"$RIG_TMP/mock.out" 2>&1 &
	MOCK_PID=$!
	local i
	for ((i = 0; i < 300; i++)); do
		[[ -s $portfile ]] && break
		kill -0 "$MOCK_PID" 2>/dev/null || break
		sleep 0.1
	done
	if [[ ! -s $portfile ]]; then
		echo "FAIL: mock model server did not start: $(cat "$RIG_TMP/mock.out")" >&2
		return 1
	fi
	MOCK_PORT=$(<"$portfile")
	MOCK_URL="http://127.0.0.1:$MOCK_PORT"
}

rig_mock_stop() {
	if [[ -n ${MOCK_PID:-} ]]; then
		kill "$MOCK_PID" 2>/dev/null || true
		wait "$MOCK_PID" 2>/dev/null || true
		MOCK_PID=
	fi
}

# rig_make_home DIR creates an empty HOME (0700).
rig_make_home() {
	mkdir -p "$1"
	chmod 700 "$1"
}

# rig_make_repo DIR creates a git repo on branch main with one commit.
rig_make_repo() {
	local repo=$1
	mkdir -p "$repo"
	(
		cd "$repo" || exit 1
		export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
		export GIT_AUTHOR_NAME=rig GIT_AUTHOR_EMAIL=rig@example.invalid
		export GIT_COMMITTER_NAME=rig GIT_COMMITTER_EMAIL=rig@example.invalid
		git init -q -b main . &&
			echo "# rig project" >README.md &&
			git add README.md &&
			git commit -q -m "initial commit"
	)
}

# rig_seed_claude HOME REPO writes ~/.claude.json so the interactive TUI skips
# onboarding, the custom-API-key question and the folder-trust dialog.
rig_seed_claude() {
	local home=$1 repo=$2
	local approved=${RIG_ANTHROPIC_KEY: -20}
	cat >"$home/.claude.json" <<EOF
{
  "hasCompletedOnboarding": true,
  "lastOnboardingVersion": "2.1.197",
  "customApiKeyResponses": {"approved": ["$approved"], "rejected": []},
  "projects": {
    "$repo": {"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}
  }
}
EOF
	chmod 600 "$home/.claude.json"
}

# rig_seed_codex HOME REPO writes $CODEX_HOME/config.toml: the mock provider,
# phone-home features off, and the repo trusted (skips the TUI trust dialog).
rig_seed_codex() {
	local home=$1 repo=$2
	mkdir -p "$home/.codex"
	chmod 700 "$home/.codex"
	cat >"$home/.codex/config.toml" <<EOF
model = "mock-model"
model_provider = "mock"
check_for_update_on_startup = false

[analytics]
enabled = false

[features]
plugins = false
apps = false
remote_plugin = false
plugin_sharing = false
tool_suggest = false
api_key_model_discovery = false

[model_providers.mock]
name = "Mock"
base_url = "$MOCK_URL/v1"
env_key = "MOCK_API_KEY"
wire_api = "responses"
request_max_retries = 0
stream_max_retries = 0

[projects."$repo"]
trust_level = "trusted"
EOF
	chmod 600 "$home/.codex/config.toml"
}

# rig_env HOME BINDIR... sets the array RIG_ENV: the complete environment
# (for env -i) of a harness run. All traffic goes to the mock: model calls
# via the base URLs, anything else via the proxy variables, where the mock
# logs it as phone_home and refuses it.
rig_env() {
	local home=$1
	shift
	local path d
	path=$(IFS=:; echo "$*")
	for d in "$(dirname "$(command -v node)")" "$(dirname "$(command -v git)")" /usr/local/bin /usr/bin /bin; do
		path+=":$d"
	done
	RIG_ENV=(
		"HOME=$home" "PATH=$path" "USER=$(id -un)" "TERM=${RIG_TERM:-xterm-256color}"
		"LANG=C.UTF-8" "TMPDIR=$RIG_TMP/tmp" "SHELL=/bin/bash"
		"HTTPS_PROXY=$MOCK_URL" "HTTP_PROXY=$MOCK_URL" "https_proxy=$MOCK_URL" "http_proxy=$MOCK_URL"
		"NO_PROXY=127.0.0.1,localhost" "no_proxy=127.0.0.1,localhost"
		"GIT_CONFIG_NOSYSTEM=1"
		"ANTHROPIC_BASE_URL=$MOCK_URL" "ANTHROPIC_API_KEY=$RIG_ANTHROPIC_KEY"
		"DISABLE_TELEMETRY=1" "DISABLE_AUTOUPDATER=1" "DISABLE_ERROR_REPORTING=1"
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1"
		"CLAUDE_CODE_DISABLE_OFFICIAL_MARKETPLACE_AUTOINSTALL=1"
		"CODEX_HOME=$home/.codex" "MOCK_API_KEY=$RIG_CODEX_KEY"
	)
	# Claude refuses --dangerously-skip-permissions as root outside a sandbox.
	[[ $(id -u) == 0 ]] && RIG_ENV+=("IS_SANDBOX=1")
	return 0
}

# rig_run CMD... runs CMD with exactly $RIG_ENV, killed after
# $RIG_TIMEOUT seconds (default 180) so a stuck harness cannot hang a script.
rig_run() {
	timeout "${RIG_TIMEOUT:-180}" env -i "${RIG_ENV[@]}" "$@"
}

# rig_uuid prints a random UUID.
rig_uuid() { cat /proc/sys/kernel/random/uuid; }

# rig_claude_transcript HOME REPO SESSION prints the path of Claude's
# transcript: ~/.claude/projects/<cwd with non-alphanumerics as '-'>/<id>.jsonl
rig_claude_transcript() {
	local dashed
	dashed=$(printf %s "$2" | sed 's/[^A-Za-z0-9]/-/g')
	echo "$1/.claude/projects/$dashed/$3.jsonl"
}

# rig_codex_rollout HOME THREAD prints the path of Codex's rollout file.
rig_codex_rollout() {
	find "$1/.codex/sessions" -name "rollout-*-$2.jsonl" -print -quit 2>/dev/null
}

# rig_env_file FILE writes $RIG_ENV as export lines, for shells in tmux panes.
rig_env_file() {
	local kv
	: >"$1"
	for kv in "${RIG_ENV[@]}"; do
		printf 'export %s=%q\n' "${kv%%=*}" "${kv#*=}" >>"$1"
	done
}

# --- tmux helpers (private server: -L $RIG_TMUX_SOCKET) ---

rig_tmux() { tmux -L "$RIG_TMUX_SOCKET" "$@"; }

# rig_need_tmux installs tmux with apt-get when it is missing.
rig_need_tmux() {
	command -v tmux >/dev/null && return 0
	echo "tmux missing; installing it with apt-get" >&2
	apt-get install -y -qq tmux >/dev/null 2>&1 ||
		{ apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq tmux >/dev/null 2>&1; }
	command -v tmux >/dev/null
}

# rig_tmux_shell NAME DIR starts a detached session running a clean
# login-free bash with $RIG_ENV loaded, in DIR.
rig_tmux_shell() {
	local name=$1 dir=$2 envfile="$RIG_TMP/$1.env"
	rig_env_file "$envfile"
	rig_tmux new-session -d -s "$name" -x 160 -y 45 -c "$dir" \
		"env -i TERM=xterm-256color bash --noprofile --norc"
	rig_tmux send-keys -t "$name" ". $(printf %q "$envfile"); export PS1='rig\$ '; clear" Enter
	rig_tmux_wait "$name" '^rig\$( |$)' 20 || {
		echo "FAIL: shell in tmux session $name did not start; pane:" >&2
		rig_tmux capture-pane -p -t "$name" >&2
		return 1
	}
}

# rig_tmux_wait TARGET REGEX SECONDS waits until the pane shows REGEX.
rig_tmux_wait() {
	local target=$1 re=$2 secs=$3 i
	for ((i = 0; i < secs * 5; i++)); do
		rig_tmux capture-pane -p -t "$target" 2>/dev/null | grep -Eq -- "$re" && return 0
		sleep 0.2
	done
	# Say what the pane showed instead, so a failed wait can be diagnosed.
	echo "rig_tmux_wait: no /$re/ in $target after ${secs}s; the pane shows:" >&2
	rig_tmux capture-pane -p -t "$target" 2>/dev/null | sed 's/^/  | /' | tail -n 25 >&2
	return 1
}

# rig_tmux_count TARGET REGEX prints how many pane lines match REGEX
# (including scrollback).
rig_tmux_count() {
	rig_tmux capture-pane -p -S - -t "$1" 2>/dev/null | grep -Ec -- "$2" || true
}

# rig_tmux_type TARGET TEXT types TEXT, waits until it is echoed, presses
# Enter (TUIs can drop keys typed during their first paint).
rig_tmux_type() {
	local target=$1 text=$2
	rig_tmux send-keys -t "$target" -l "$text"
	rig_tmux_wait "$target" "$text" 10 || {
		rig_tmux send-keys -t "$target" -l "$text"
		rig_tmux_wait "$target" "$text" 10 || return 1
	}
	sleep 0.3
	rig_tmux send-keys -t "$target" Enter
}

# rig_scrub FILE HOME OUT copies FILE to OUT with the throwaway HOME (in its
# plain and Claude-project "-" forms) and the rig dir replaced by stable
# placeholders; everything else stays byte-identical.
rig_scrub() {
	local file=$1 home=$2 out=$3
	local dashed_home dashed_tmp
	dashed_home=$(printf %s "$home" | sed 's/[^A-Za-z0-9]/-/g')
	dashed_tmp=$(printf %s "$RIG_TMP" | sed 's/[^A-Za-z0-9]/-/g')
	python3 - "$file" "$out" "$home" /home/user "$dashed_home" -home-user \
		"$RIG_TMP" /tmp/rig "$dashed_tmp" -tmp-rig <<'EOF'
import sys
src, dst, *pairs = sys.argv[1:]
data = open(src, 'rb').read()
for old, new in zip(pairs[::2], pairs[1::2]):
    data = data.replace(old.encode(), new.encode())
open(dst, 'wb').write(data)
EOF
}

# --- assertions: one PASS/FAIL line each; failures are counted ---

RIG_FAILS=0
pass() { echo "PASS: $*"; }
fail() {
	echo "FAIL: $*"
	RIG_FAILS=$((RIG_FAILS + 1))
}
# check DESCRIPTION CMD... runs CMD and reports PASS/FAIL.
check() {
	local desc=$1
	shift
	if "$@"; then pass "$desc"; else fail "$desc"; fi
}

# shellcheck source=realclis-gemini.sh
source "$RIG_ROOT/scripts/lib/realclis-gemini.sh"
# shellcheck source=realclis-copilot.sh
source "$(dirname "${BASH_SOURCE[0]}")/realclis-copilot.sh"
# shellcheck source=realclis-kimi.sh
source "$(dirname "${BASH_SOURCE[0]}")/realclis-kimi.sh"
# shellcheck source=realclis-commandcode.sh
source "$(dirname "${BASH_SOURCE[0]}")/realclis-commandcode.sh"
# shellcheck source=realclis-pi.sh
source "$(dirname "${BASH_SOURCE[0]}")/realclis-pi.sh"
# shellcheck source=realclis-qwen.sh
source "$(dirname "${BASH_SOURCE[0]}")/realclis-qwen.sh"
# shellcheck source=realclis-omp.sh
source "$(dirname "${BASH_SOURCE[0]}")/realclis-omp.sh"
