# shellcheck shell=bash
# capture_crush VERSION (sourced by scripts/capture-fixtures.sh): Crush
# fixtures, for when a crush binary of VERSION runs here (its npm package
# cannot install offline: the postinstall downloads from GitHub). Until then
# transcript/testdata/crush/<version>/app.sql is built from Crush's source
# (see its header) and CAPTURE_CRUSH is empty.
#   captured.sql  the rows of <repo>/.crush/crush.db after
#                 crush run "hello RUN_TOOL" and crush run --continue "again",
#                 as INSERTs (paths scrubbed); TestCrushGolden reads every
#                 <version>/*.sql and writes golden/<name>.golden (-update).
# The binary is $AI_MEMORY_CRUSH_BIN or crush on PATH; it must print VERSION.
capture_crush() {
	local ver=$1 bin home repo out db
	bin=${AI_MEMORY_CRUSH_BIN:-$(command -v crush || true)}
	if [[ -z $bin ]] || ! "$bin" --version 2>/dev/null | grep -qF "$ver"; then
		echo "SKIP crush $ver: no crush binary of that version (set AI_MEMORY_CRUSH_BIN)"
		return 0
	fi
	home="$RIG_TMP/crush-$ver/home" repo="$RIG_TMP/crush-$ver/home/project"
	out="$PWD/transcript/testdata/crush/$ver"
	rig_make_home "$home" && rig_make_repo "$repo"
	mkdir -p "$home/.config/crush" "$repo/.crush" "$out"
	touch "$repo/.crush/init" # skips the "initialize this project?" dialog
	cat >"$home/.config/crush/crushrc" <<RC
provider add mock --type openai-compat --base-url "$MOCK_URL/v1" --api-key mock-key
model add mock/mock-model --name "Mock Model" --context-window 128000 --default-max-tokens 4096
model large mock/mock-model
model small mock/mock-model
option metrics false
option provider-auto-update false
option default-providers false
option auto-lsp false
RC
	(
		cd "$repo"
		export HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share
		export CRUSH_DISABLE_PROVIDER_AUTO_UPDATE=1 CRUSH_DISABLE_METRICS=1 DO_NOT_TRACK=1
		export HTTPS_PROXY=$MOCK_URL HTTP_PROXY=$MOCK_URL NO_PROXY=127.0.0.1,localhost
		"$bin" run --quiet "hello RUN_TOOL" && "$bin" run --quiet --continue "again"
	) || { echo "FAIL crush $ver: run failed"; return 1; }
	db="$repo/.crush/crush.db"
	{
		echo "-- Captured from crush $ver against the mock model by scripts/capture-fixtures.sh."
		sqlite3 "$db" ".mode insert sessions" "SELECT * FROM sessions"
		sqlite3 "$db" ".mode insert messages" "SELECT * FROM messages ORDER BY rowid"
	} | sed "s#$repo#/project#g; s#$home#/home#g" >"$out/captured.sql"
	echo "captured crush $ver into $out/captured.sql"
}
