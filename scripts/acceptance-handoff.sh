#!/usr/bin/env bash
# Acceptance: the handoff packet between the real Claude Code and Codex CLIs.
# Same sequence as acceptance-run.sh (claude -> codex -> claude); checks in
# the mock's request log what each model request actually carried:
#   - the first Claude run gets no packet (nothing to hand off yet);
#   - Codex's requests carry the packet exactly once, with Claude's message
#     and tool call;
#   - the next Claude run gets Codex's events and not its own again;
# and that the user's harness configs were not modified and the packet never
# re-entered the ledger.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

acc_setup
if ((HAVE_CLAUDE == 0 || HAVE_CODEX == 0)); then
	echo "SKIP: acceptance-handoff needs both claude and codex (see SKIP lines above)"
	exit 0
fi

# User-owned config that must stay untouched.
mkdir -p "$HOME_DIR/.claude"
echo '{"theme": "dark"}' >"$HOME_DIR/.claude/settings.json"
sum_settings=$(sha256sum <"$HOME_DIR/.claude/settings.json")
sum_codex=$(sha256sum <"$HOME_DIR/.codex/config.toml")

# requests_of FROM TO PATH_RE: model requests logged between two marks.
requests_of() {
	log_slice "$1" "$2" | jq -c --arg re "$3" 'select(.method == "POST" and (.path | test($re)) and (.path | test("count_tokens") | not))'
}
has_markers() { [[ $(marker_count) == "$1" ]]; }
packet_has() { packet_text | grep -F -- "$1" >/dev/null; }
packet_lacks() { ! packet_text | grep -F -- "$1" >/dev/null; }
packet_first_line() { [[ $(packet_text | sed -n 1p) == "$PACKET_MARKER" ]]; }

log_mark start
aim_step claude-1 "TOOL_DONE: hello | ACK: hello RUN_TOOL" \
	run claude -p "hello RUN_TOOL" --dangerously-skip-permissions || true
log_mark claude1
aim_step codex-1 "TOOL_DONE: hello | ACK: next RUN_TOOL" \
	run codex exec --skip-git-repo-check "next RUN_TOOL" || true
log_mark codex1
aim_step claude-2 "ACK: again" run claude -p "again" || true
log_mark claude2

claude1=$(requests_of start claude1 messages)
codex1=$(requests_of claude1 codex1 responses)
claude2=$(requests_of codex1 claude2 messages)
codex_first=$(head -n 1 <<<"$codex1")
claude2_first=$(head -n 1 <<<"$claude2")

check "first claude run: no packet in any request" all_lines has_markers 0 <<<"$claude1"
check "codex: every request carries the packet exactly once" all_lines has_markers 1 <<<"$codex1"
check "codex: the packet starts with $PACKET_MARKER" packet_first_line <<<"$codex_first"
check "codex: packet holds claude's prompt" packet_has "hello RUN_TOOL" <<<"$codex_first"
check "codex: packet holds claude's tool call" packet_has "echo hello" <<<"$codex_first"
check "codex: packet holds claude's answer" packet_has "TOOL_DONE: hello | ACK: hello RUN_TOOL" <<<"$codex_first"
check "codex: the user's prompt is its own message, not glued to the packet" \
	packet_lacks "next RUN_TOOL" <<<"$codex_first"
check "second claude run: every request carries the packet exactly once" all_lines has_markers 1 <<<"$claude2"
check "second claude run: packet holds codex's prompt" packet_has "next RUN_TOOL" <<<"$claude2_first"
check "second claude run: packet holds codex's answer" \
	packet_has "TOOL_DONE: hello | ACK: next RUN_TOOL" <<<"$claude2_first"
check "second claude run: packet does not repeat claude's own events" \
	packet_lacks "hello RUN_TOOL" <<<"$claude2_first"

rc=0
aim handoff --harness claude >"$RIG_TMP/handoff-claude.out" 2>&1 || rc=$?
aim handoff --harness codex >"$RIG_TMP/handoff-codex.out" 2>&1 || true
check "handoff --harness claude: exits 0 with nothing unseen left for claude" \
	eq "$rc/$(marker_count <"$RIG_TMP/handoff-claude.out")" 0/0
check "handoff --harness codex: the next codex launch would get claude's new answer" \
	grep -qF "ACK: again" "$RIG_TMP/handoff-codex.out"
check "handoff --harness codex: but not codex's own events" \
	eq "$(grep -cF "next RUN_TOOL" "$RIG_TMP/handoff-codex.out" || true)" 0

acc_events || true
check "ledger: no event holds the packet" \
	eq "$(ev --arg m "$PACKET_MARKER" '[.[] | select(.content | contains($m))] | length')" 0
# (the check above reads every event's text through ai-memory; this one reads
# the texts SQLite stores plain, the packed ones being BLOBs only it unpacks)
check "ledger.db: no stored content mentions the packet marker" eq \
	"$(sqlite3 "file:$RIG_TMP/amdata/ledger.db?mode=ro" "select count(*) from events where typeof(content) = 'text' and content like '%ai-memory:packet%'" 2>&1)" 0
check "~/.claude/settings.json unchanged" eq "$(sha256sum <"$HOME_DIR/.claude/settings.json")" "$sum_settings"
check "\$CODEX_HOME/config.toml unchanged" eq "$(sha256sum <"$HOME_DIR/.codex/config.toml")" "$sum_codex"
check "~/.claude.json: nothing of ai-memory added" eq "$(grep -c 'ai-memory' "$HOME_DIR/.claude.json" || true)" 0

acc_finish
