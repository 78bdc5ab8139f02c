# shellcheck shell=bash
# capture_grok VERSION (sourced by scripts/capture-fixtures.sh): Grok Build
# fixtures, for when a grok binary of VERSION runs here (it installs only
# from x.ai). Until then transcript/testdata/grok/<version>/ holds a history
# built from Grok's source (see its README.md) and CAPTURE_GROK is empty.
#   chat_history.jsonl  after grok -p "hello RUN_TOOL" --session-id <uuid>
#                       and grok -p "again" --resume <uuid> (paths scrubbed);
#                       TestGrokGolden reads it (-update rewrites golden/).
# The model is the mock, declared in $GROK_HOME/config.toml as a custom
# chat-completions model (user guide 11-custom-models.md). The binary is
# $AI_MEMORY_GROK_BIN or grok on PATH; `grok --version` must name VERSION.
capture_grok() {
	local ver=$1 bin home repo out id f
	bin=${AI_MEMORY_GROK_BIN:-$(command -v grok || true)}
	if [[ -z $bin ]] || ! "$bin" --version 2>/dev/null | grep -q "^grok $ver"; then
		echo "SKIP grok $ver: no Grok Build binary of that version (set AI_MEMORY_GROK_BIN)"
		return 0
	fi
	home="$RIG_TMP/grok-$ver/home" repo="$RIG_TMP/grok-$ver/home/project"
	out="$PWD/transcript/testdata/grok/$ver"
	rig_make_home "$home" && rig_make_repo "$repo"
	mkdir -p "$home/.grok" "$out"
	cat >"$home/.grok/config.toml" <<TOML
[models]
default = "mock"

[model.mock]
model = "mock-model"
base_url = "$MOCK_URL/v1"
api_key = "mock-key"
api_backend = "chat_completions"
TOML
	id=$(rig_uuid)
	(
		cd "$repo"
		export HOME=$home GROK_HOME=$home/.grok
		export HTTPS_PROXY=$MOCK_URL HTTP_PROXY=$MOCK_URL NO_PROXY=127.0.0.1,localhost
		"$bin" -p "hello RUN_TOOL" --session-id "$id" --yolo --no-auto-update &&
			"$bin" -p "again" --resume "$id" --yolo --no-auto-update
	) || { echo "FAIL grok $ver: run failed"; return 1; }
	f=$(find "$home/.grok/sessions" -path "*/$id/chat_history.jsonl" | head -1)
	sed "s#$repo#/project#g; s#$home#/home#g" "$f" >"$out/chat_history.jsonl"
	echo "captured grok $ver into $out/chat_history.jsonl"
}
