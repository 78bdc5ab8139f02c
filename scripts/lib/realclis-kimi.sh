# shellcheck shell=bash
# Kimi Code rig (sourced by realclis.sh): the pinned release (npm
# @moonshot-ai/kimi-code; npm `kimi-code` is an unrelated package), Node 22
# from npm (it needs >= 22.19), the mock provider config, the offline
# switches and the fd/rg binaries its TUI would otherwise download. See
# docs/testing.md.
KIMI_VERSIONS="2.1.0"
KIMI_VERSION=${AI_MEMORY_ACCEPTANCE_KIMI_VERSION:-${KIMI_VERSIONS##* }}

# rig_kimi_bin VERSION prints the PATH prefix for that Kimi: its bin dir,
# Node 22, and a dir holding fd and rg (from Debian's fd-find and ripgrep
# packages, unpacked with dpkg-deb into the cache, nothing installed).
rig_kimi_bin() {
	local node dir tools
	node=$(rig_node22_bin) || return 1
	dir=$(PATH="$node:$PATH" rig_install kimi @moonshot-ai/kimi-code "$1") || return 1
	tools=$(rig_kimi_tools) || return 1
	echo "$dir/node_modules/.bin:$node:$tools"
}

# rig_kimi_tools prints a dir with fd and rg, fetched once with apt-get
# download (Debian's mirror) when neither is on PATH.
rig_kimi_tools() {
	local dir="$RIG_CACHE/kimi-tools"
	if [[ -x $dir/fd && -x $dir/rg ]]; then
		echo "$dir"
		return 0
	fi
	mkdir -p "$dir/deb"
	(
		flock 9
		cd "$dir/deb" || exit 1
		apt-get download fd-find ripgrep >/dev/null 2>&1 ||
			{ apt-get update -qq >/dev/null 2>&1 && apt-get download fd-find ripgrep >/dev/null 2>&1; } || exit 1
		for d in *.deb; do dpkg-deb -x "$d" "$dir/root"; done
		ln -sf "$dir/root/usr/bin/fdfind" "$dir/fd"
		ln -sf "$dir/root/usr/bin/rg" "$dir/rg"
	) 9>"$dir.lock"
	[[ -x $dir/fd && -x $dir/rg ]] || { echo "SKIP: fd/rg for kimi could not be fetched with apt-get download" >&2; return 1; }
	echo "$dir"
}

# rig_seed_kimi HOME REPO writes config.toml (the mock provider) and trusts
# REPO for the TUI (workspace-trust/<bucket>; the bucket is
# wd_<slug>_<sha256(cwd)[:12]>, slug = basename lowercased, other
# characters -> '-').
rig_seed_kimi() {
	local kh="$1/.kimi-code" repo=$2 slug hash
	mkdir -p "$kh/workspace-trust"
	chmod 700 "$kh"
	cat >"$kh/config.toml" <<TOML
default_model = "mock"

[providers.mock]
type = "openai"
base_url = "$MOCK_URL/v1"
api_key = "mock-key"

[models.mock]
provider = "mock"
model = "mock-model"
max_context_size = 128000
TOML
	slug=$(basename "$repo" | tr 'A-Z' 'a-z' | sed -E 's/[^a-z0-9._-]+/-/g' | cut -c1-40)
	hash=$(printf %s "$repo" | sha256sum | cut -c1-12)
	printf '{"root":"%s","trustedAt":%s000}\n' "$repo" "$(date +%s)" >"$kh/workspace-trust/wd_${slug}_$hash"
}

# rig_kimi_env adds Kimi's offline switches to RIG_ENV (after rig_env):
# telemetry and update checks off, remote configs sent to the mock.
rig_kimi_env() {
	RIG_ENV+=("KIMI_DISABLE_TELEMETRY=1" "KIMI_CODE_NO_AUTO_UPDATE=1" "KIMI_CODE_BASE_URL=$MOCK_URL/coding/v1")
}

# rig_kimi_transcript HOME [ID] prints wire.jsonl of session ID (the newest
# session without one).
rig_kimi_transcript() {
	local s="$1/.kimi-code/sessions"
	if [[ -n ${2:-} ]]; then
		ls "$s"/*/"$2"/agents/main/wire.jsonl 2>/dev/null | head -1
	else
		ls -t "$s"/*/*/agents/main/wire.jsonl 2>/dev/null | head -1
	fi
}

# rig_kimi_session_id FILE prints the session id of a wire.jsonl.
rig_kimi_session_id() { basename "$(dirname "$(dirname "$(dirname "$1")")")"; }
