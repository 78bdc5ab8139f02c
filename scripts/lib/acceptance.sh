# shellcheck shell=bash
# Shared setup and assertions of scripts/acceptance-*.sh (see docs/testing.md).
# Sourcing this also sources realclis.sh.
#
# acc_setup leaves:
#   AIM            absolute path of bin/ai-memory
#   HOME_DIR REPO  throwaway HOME and its git repo (cwd of every run)
#   HAVE_CLAUDE HAVE_CODEX  1 when that harness is installed, else 0 (SKIP printed)
#   RIG_ENV        the environment of every run, with AI_MEMORY_HOME set
#   MOCK_LOG       the mock's request log

# shellcheck source=realclis.sh
source "$(dirname "${BASH_SOURCE[0]}")/realclis.sh"

PACKET_MARKER='<!-- ai-memory:packet:v1 -->'
ACC_CLAUDE_VERSION=${AI_MEMORY_ACCEPTANCE_CLAUDE_VERSION:-${CLAUDE_VERSIONS##* }}

acc_setup() {
	rig_init
	acc_build || exit 1
	rig_mock_start || exit 1
	HOME_DIR="$RIG_TMP/home" REPO="$RIG_TMP/home/project"
	rig_make_home "$HOME_DIR"
	rig_make_repo "$REPO" >/dev/null
	local bins=() b
	HAVE_CLAUDE=0 HAVE_CODEX=0
	if b=$(rig_claude_bin "$ACC_CLAUDE_VERSION"); then
		HAVE_CLAUDE=1 bins+=("$b")
		rig_seed_claude "$HOME_DIR" "$REPO"
	fi
	if b=$(rig_codex_bin "$CODEX_VERSION"); then
		HAVE_CODEX=1 bins+=("$b")
		rig_seed_codex "$HOME_DIR" "$REPO"
	fi
	rig_env "$HOME_DIR" "$(dirname "$AIM")" "${bins[@]}"
	RIG_ENV+=("AI_MEMORY_HOME=$RIG_TMP/amdata")
	acc_ledger || exit 1
}

# acc_ledger puts the ledger on PostgreSQL when AI_MEMORY_ACCEPTANCE_LEDGER
# is postgres (default sqlite: the data home's file): a fresh database on
# the server AI_MEMORY_TEST_POSTGRES (`make acceptance-pg` runs the script
# inside scripts/pg-cluster.sh run), named by AI_MEMORY_LEDGER in RIG_ENV
# and dropped by rig_cleanup. ACC_LEDGER_URL is its URL ("" on SQLite).
acc_ledger() {
	ACC_LEDGER_URL=
	case ${AI_MEMORY_ACCEPTANCE_LEDGER:-sqlite} in
	sqlite) return 0 ;;
	postgres) ;;
	*)
		echo "FAIL: AI_MEMORY_ACCEPTANCE_LEDGER=$AI_MEMORY_ACCEPTANCE_LEDGER: want sqlite or postgres"
		return 1
		;;
	esac
	if [[ -z ${AI_MEMORY_TEST_POSTGRES:-} ]]; then
		echo "FAIL: AI_MEMORY_ACCEPTANCE_LEDGER=postgres needs AI_MEMORY_TEST_POSTGRES (a server URL): run under scripts/pg-cluster.sh run (make acceptance-pg)"
		return 1
	fi
	local name="acc_$$_$RANDOM"
	psql -X -q "$AI_MEMORY_TEST_POSTGRES" -c "CREATE DATABASE $name" >"$RIG_TMP/createdb.log" 2>&1 || {
		echo "FAIL: could not create the acceptance database: $(tail -n 1 "$RIG_TMP/createdb.log")"
		return 1
	}
	RIG_DROP_DB=$name
	ACC_LEDGER_URL=$(sed -E "s#^([a-z]+://[^/?]+)/?[^?]*#\1/$name#" <<<"$AI_MEMORY_TEST_POSTGRES")
	RIG_ENV+=("AI_MEMORY_LEDGER=$ACC_LEDGER_URL")
	echo "ledger: PostgreSQL, database $name"
}

# acc_build runs `make build` (skipped with AI_MEMORY_ACCEPTANCE_REBUILD=0)
# and checks that bin/ai-memory has the run command.
acc_build() {
	AIM="$RIG_ROOT/bin/ai-memory"
	if [[ ${AI_MEMORY_ACCEPTANCE_REBUILD:-1} != 0 ]]; then
		make -s -C "$RIG_ROOT" build >"$RIG_TMP/build.log" 2>&1 || {
			echo "FAIL: make build failed:"
			tail -n 20 "$RIG_TMP/build.log"
			return 1
		}
	fi
	[[ -x $AIM ]] || { echo "FAIL: $AIM is missing; run make build"; return 1; }
	"$AIM" run --help >/dev/null 2>&1 || { echo "FAIL: $AIM has no working run command"; return 1; }
}

# aim ARGS... runs ai-memory in the repo with the rig environment; stdin is
# /dev/null, so every harness runs in print mode.
aim() {
	(cd "$REPO" && rig_run "$AIM" "$@" </dev/null)
}

# aim_step NAME EXPECT ARGS... runs `ai-memory ARGS`, saving its output in
# $RIG_TMP/NAME.out, and checks it exits 0 and prints EXPECT.
aim_step() {
	local name=$1 expect=$2
	shift 2
	local out="$RIG_TMP/$name.out" rc=0
	aim "$@" >"$out" 2>&1 || rc=$?
	if ((rc != 0)); then
		fail "$name: ai-memory $* exited $rc: $(tail -n 3 "$out" | tr '\n' ' ')"
		return 1
	fi
	if grep -qF -- "$expect" "$out"; then
		pass "$name: output shows '$expect'"
	else
		# What the agent printed instead, so that a failure that does not
		# come back on the retry can still be told apart.
		fail "$name: output shows '$expect'; it ends: $(tail -n 5 "$out" | tr '\n' ' ' | cut -c1-600)"
	fi
}

# acc_events writes the workstream's events, ordered by sequence, as a JSON
# array to $RIG_TMP/events.json, from `workstream-search --json`. If that
# command fails (a FAIL), the events are read from ledger.db with sqlite3 (or
# the PostgreSQL database with psql) so
# that the remaining assertions still say something.
acc_events() {
	local db="file:$RIG_TMP/amdata/ledger.db?mode=ro"
	# Schema v2 (docs/ledger.md): harness and native session live in sources
	# (the same tables on PostgreSQL). Since schema 6 SQLite stores a long
	# text packed (a BLOB only ai-memory unpacks): such a row's content reads
	# as null with packed = 1, and the comparison below leaves its content
	# out (its sequence and kind still count).
	local cols='e.sequence, s.harness, s.native_session_id, e.kind, e.role'
	local from='from events e join sources s on s.id = e.source_id order by e.sequence'
	if [[ -n ${ACC_LEDGER_URL:-} ]]; then
		psql -X -At "$ACC_LEDGER_URL" -c "select coalesce(json_agg(t), '[]') from (select $cols, e.content $from) t" \
			>"$RIG_TMP/events.db.json" 2>"$RIG_TMP/events.db.err" || echo '[]' >"$RIG_TMP/events.db.json"
	else
		sqlite3 -json "$db" "select $cols, case typeof(e.content) when 'blob' then null else e.content end as content,
			typeof(e.content) = 'blob' as packed $from" >"$RIG_TMP/events.db.json" 2>"$RIG_TMP/events.db.err" ||
			echo '[]' >"$RIG_TMP/events.db.json"
	fi
	[[ -s $RIG_TMP/events.db.json ]] || echo '[]' >"$RIG_TMP/events.db.json"
	if [[ -n ${ACC_LEDGER_URL:-} ]]; then
		check "ledger: on PostgreSQL, no ledger.db in the data home" test ! -e "$RIG_TMP/amdata/ledger.db"
		check "ledger: PostgreSQL holds the events" test "$(jq length "$RIG_TMP/events.db.json")" -gt 0
	fi
	if aim workstream-search --json --limit 100 >"$RIG_TMP/events.raw" 2>"$RIG_TMP/events.err"; then
		jq 'sort_by(.sequence)' "$RIG_TMP/events.raw" >"$RIG_TMP/events.json"
		check "workstream-search --json lists the same events as the ledger's tables" eq \
			"$(jq -c --slurpfile db "$RIG_TMP/events.db.json" '[$db[0][] | select(.packed == 1) | .sequence] as $p
				| [.[] | [.sequence, .kind, (if ([.sequence] | inside($p)) then null else .content end)]]' "$RIG_TMP/events.json")" \
			"$(jq -c '[.[] | [.sequence, .kind, .content]]' "$RIG_TMP/events.db.json")"
	else
		fail "workstream-search --json failed ($(head -n 1 "$RIG_TMP/events.err")); using ledger.db"
		cp "$RIG_TMP/events.db.json" "$RIG_TMP/events.json"
	fi
}

# ev JQ_FILTER runs a jq filter over the ordered events.
ev() { jq -r "$@" "$RIG_TMP/events.json"; }

# first_seq HARNESS KIND TEXT prints the sequence of the first event of that
# harness and kind whose content contains TEXT (empty when none).
first_seq() {
	ev --arg h "$1" --arg k "$2" --arg t "$3" \
		'[.[] | select(.harness == $h and .kind == $k and (.content | contains($t)))][0].sequence // empty'
}

# count_events HARNESS KIND TEXT counts matching events.
count_events() {
	ev --arg h "$1" --arg k "$2" --arg t "$3" \
		'[.[] | select(.harness == $h and .kind == $k and (.content | contains($t)))] | length'
}

# count_exact HARNESS KIND TEXT counts events whose content is exactly TEXT.
count_exact() {
	ev --arg h "$1" --arg k "$2" --arg t "$3" \
		'[.[] | select(.harness == $h and .kind == $k and .content == $t)] | length'
}

# session_of HARNESS TEXT prints the native session id of the first event of
# HARNESS whose content contains TEXT.
session_of() {
	ev --arg h "$1" --arg t "$2" \
		'[.[] | select(.harness == $h and (.content | contains($t)))][0].native_session_id // empty'
}

# ordered A B C...: each argument is a number and the list is strictly increasing.
ordered() {
	local prev=-1 x
	for x in "$@"; do
		[[ $x =~ ^[0-9]+$ ]] && ((x > prev)) || return 1
		prev=$x
	done
}

# eq A B: string equality, both non-empty.
eq() { [[ -n $1 && $1 == "$2" ]]; }

# --- mock request log ---

# model_requests PATH_RE prints the model requests (one JSON per line) whose
# path matches PATH_RE, in arrival order.
model_requests() {
	jq -c --arg re "$1" 'select(.method == "POST" and (.path | test($re)) and (.path | test("count_tokens") | not))' "$MOCK_LOG"
}

# marker_count: number of packet markers in one request (stdin).
marker_count() { grep -oF -- "$PACKET_MARKER" | wc -l | tr -d ' '; }

# packet_text: the string inside a request (stdin) that holds the packet.
packet_text() { jq -r --arg m "$PACKET_MARKER" '[.body | .. | strings | select(contains($m))] | join("\n")'; }

# claude_session_header: X-Claude-Code-Session-Id of a request (stdin).
claude_session_header() {
	jq -r '.headers | to_entries[] | select(.key | ascii_downcase == "x-claude-code-session-id") | .value'
}

# acc_finish prints the verdict and exits non-zero when any assertion failed.
acc_finish() {
	if ((RIG_FAILS > 0)); then
		echo "FAIL: $(basename "$0"): $RIG_FAILS assertion(s) failed"
		exit 1
	fi
	echo "PASS: $(basename "$0")"
	exit 0
}

# log_mark NAME remembers how many requests the mock has logged so far;
# log_slice FROM TO prints the requests logged between two marks.
declare -A ACC_MARKS=()
log_mark() { ACC_MARKS[$1]=$(wc -l <"$MOCK_LOG" | tr -d ' '); }
log_slice() {
	local from=${ACC_MARKS[$1]} to=${ACC_MARKS[$2]}
	if ((to > from)); then sed -n "$((from + 1)),${to}p" "$MOCK_LOG"; fi
}

# all_lines PREDICATE: every stdin line satisfies PREDICATE (given the line
# on stdin) and there is at least one line.
all_lines() {
	local line n=0
	while IFS= read -r line; do
		[[ -n $line ]] || continue
		n=$((n + 1))
		"$@" <<<"$line" || return 1
	done
	((n > 0))
}
