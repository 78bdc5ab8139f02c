# shellcheck shell=bash
# capture_kiro VERSION (sourced by scripts/capture-fixtures.sh): Kiro CLI
# fixtures, for when a kiro-cli binary of VERSION runs here (it installs
# only from its own script). Until then transcript/testdata/kiro/<version>/
# holds a tree built from public readers of its files (see its README.md)
# and CAPTURE_KIRO is empty.
#   sessions/cli/<uuid>.jsonl + .json  after kiro-cli chat --no-interactive
#                                      "hello RUN_TOOL" --trust-all-tools,
#                                      then --resume-id <uuid> "again"
# Kiro talks to its own service and has no documented setting for another
# model endpoint, so this needs a logged-in kiro-cli and network: it is not
# part of the offline rig, and it says so instead of failing.
capture_kiro() {
	local ver=$1 bin repo out home id
	bin=${AI_MEMORY_KIRO_BIN:-$(command -v kiro-cli || true)}
	if [[ -z $bin ]] || ! "$bin" --version 2>/dev/null | grep -qF "$ver"; then
		echo "SKIP kiro $ver: no kiro-cli of that version (set AI_MEMORY_KIRO_BIN)"
		return 0
	fi
	home=${KIRO_HOME:-$HOME/.kiro} repo="$RIG_TMP/kiro-$ver/project"
	out="$PWD/transcript/testdata/kiro/$ver/sessions/cli"
	rig_make_repo "$repo" && mkdir -p "$out"
	(cd "$repo" && "$bin" chat --no-interactive --trust-all-tools "hello RUN_TOOL") ||
		{ echo "FAIL kiro $ver: run failed"; return 1; }
	id=$(grep -l "\"cwd\":\"$repo\"" "$home"/sessions/cli/*.json | xargs ls -t | head -1 | xargs basename | sed 's/\.json$//')
	(cd "$repo" && "$bin" chat --no-interactive --trust-all-tools --resume-id "$id" "again") ||
		{ echo "FAIL kiro $ver: resume failed"; return 1; }
	for f in "$home/sessions/cli/$id.json" "$home/sessions/cli/$id.jsonl"; do
		sed "s#$repo#CHECKOUT#g" "$f" >"$out/$(basename "$f")"
	done
	echo "captured kiro $ver into $out"
}
