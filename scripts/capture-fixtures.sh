#!/usr/bin/env bash
# Captures real native transcripts from the pinned Claude Code and Codex
# releases, driven against the mock model server, into
# transcript/testdata/real/<cli>-<version>/<mode>.jsonl (host paths scrubbed),
# then touches transcript/testdata/real/READY.
#
# Modes per CLI version:
#   print.jsonl         fresh print-mode run with one tool call
#   print-resume.jsonl  the same session file after a print-mode resume
#   context.jsonl       a session that received extra context the way a
#                       launcher would deliver a handoff (Claude: SessionStart
#                       hook via --settings, fresh + resume; Codex:
#                       -c developer_instructions fresh, -c
#                       model_instructions_file on resume)
#   interactive.jsonl   TUI session in tmux with one tool call
#
# It also prints VERIFY lines answering whether that context reached the
# model request (checked in the mock's request log). See docs/testing.md.
#
# OpenCode (one SQLite store for all sessions) is captured by
# scripts/capture-fixtures-opencode.sh into transcript/testdata/opencode/.
#
# Versions: every pinned release (CLAUDE_VERSIONS, CODEX_VERSIONS in
# lib/realclis.sh). AI_MEMORY_CAPTURE_CLAUDE_VERSIONS and
# AI_MEMORY_CAPTURE_CODEX_VERSIONS (space-separated, "" = none) capture a
# subset, leaving the other versions' fixtures untouched, e.g. to add a
# newly pinned release without changing the existing goldens.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/realclis.sh
source scripts/lib/realclis.sh
# shellcheck source=lib/capture-pi.sh
source scripts/lib/capture-pi.sh
# shellcheck source=lib/capture-qwen.sh
source scripts/lib/capture-qwen.sh
# shellcheck source=lib/capture-omp.sh
source scripts/lib/capture-omp.sh
# shellcheck source=lib/capture-crush.sh
source scripts/lib/capture-crush.sh
# shellcheck source=lib/capture-grok.sh
source scripts/lib/capture-grok.sh
# shellcheck source=lib/capture-kiro.sh
source scripts/lib/capture-kiro.sh
# shellcheck source=lib/capture-copilot.sh
source scripts/lib/capture-copilot.sh
# shellcheck source=lib/capture-kimi.sh
source scripts/lib/capture-kimi.sh
# shellcheck source=lib/capture-commandcode.sh
source scripts/lib/capture-commandcode.sh

OUT=${AI_MEMORY_FIXTURES_OUT:-$PWD/transcript/testdata/real}
CAPTURE_CLAUDE=${AI_MEMORY_CAPTURE_CLAUDE_VERSIONS-$CLAUDE_VERSIONS}
CAPTURE_CODEX=${AI_MEMORY_CAPTURE_CODEX_VERSIONS-$CODEX_VERSIONS}
CAPTURE_OPENCODE=${AI_MEMORY_CAPTURE_OPENCODE_VERSIONS-$OPENCODE_VERSIONS}
OPENCODE_OUT=${AI_MEMORY_OPENCODE_FIXTURES_OUT:-$PWD/transcript/testdata/opencode}
CAPTURE_GEMINI=${AI_MEMORY_CAPTURE_GEMINI_VERSIONS-$GEMINI_VERSIONS}
GEMINI_OUT=${AI_MEMORY_GEMINI_FIXTURES_OUT:-$PWD/transcript/testdata/gemini}
CAPTURE_PI=${AI_MEMORY_CAPTURE_PI_VERSIONS-$PI_VERSIONS}
CAPTURE_QWEN=${AI_MEMORY_CAPTURE_QWEN_VERSIONS-$QWEN_VERSIONS}
CAPTURE_OMP=${AI_MEMORY_CAPTURE_OMP_VERSIONS-$OMP_VERSIONS}
# CLIs that cannot install here: their fixtures are built from their source
# (transcript/testdata/<name>/, provenance in each file). When one runs here,
# put its version in the default to capture instead (one line each).
CAPTURE_CRUSH=${AI_MEMORY_CAPTURE_CRUSH_VERSIONS-}
CAPTURE_GROK=${AI_MEMORY_CAPTURE_GROK_VERSIONS-}
CAPTURE_KIRO=${AI_MEMORY_CAPTURE_KIRO_VERSIONS-}
CAPTURE_COPILOT=${AI_MEMORY_CAPTURE_COPILOT_VERSIONS-$COPILOT_VERSIONS}
CAPTURE_KIMI=${AI_MEMORY_CAPTURE_KIMI_VERSIONS-$KIMI_VERSIONS}
CAPTURE_COMMANDCODE=${AI_MEMORY_CAPTURE_COMMANDCODE_VERSIONS-$COMMANDCODE_VERSIONS}
PACKET_MARKER='<!-- ai-memory:packet:v1 -->'

rig_init
rig_need_tmux || { echo "FAIL: tmux is required and could not be installed"; exit 1; }
rig_mock_start
mkdir -p "$OUT"
rm -f "$OUT/READY"

# verify DESCRIPTION COUNT: a VERIFY line; count > 0 means "yes".
verify() {
	if (($2 > 0)); then echo "VERIFY yes: $1 ($2 requests)"; else echo "VERIFY no: $1"; fi
}

# requests_with TEXT counts model requests in the mock log containing TEXT.
requests_with() { grep -F -c -- "$1" "$MOCK_LOG" || true; }

# save SRC HOME DEST scrubs and stores one fixture.
save() {
	mkdir -p "$(dirname "$3")"
	rig_scrub "$1" "$2" "$3"
	chmod 644 "$3"
	echo "captured $3 ($(wc -c <"$3") bytes)"
}

# hook_settings DIR LABEL prints a --settings JSON whose SessionStart hook
# returns additionalContext "<packet marker>\nHOOK_CONTEXT <LABEL> <source>".
hook_settings() {
	local script="$1/session-start-hook.sh"
	cat >"$script" <<EOF
#!/bin/bash
src=\$(jq -r '.source // "unknown"')
jq -cn --arg c "$PACKET_MARKER
HOOK_CONTEXT $2 \$src" '{hookSpecificOutput: {hookEventName: "SessionStart", additionalContext: \$c}}'
EOF
	chmod 700 "$script"
	jq -cn --arg c "$script" '{hooks: {SessionStart: [{hooks: [{type: "command", command: $c}]}]}}'
}

# tui_session NAME REPO CMD READY_RE DONE_RE QUIT EXIT_RE drives one TUI
# session in tmux: start CMD in a clean shell, wait for the prompt, type
# "hello RUN_TOOL", wait for the answer, quit. Saves the final pane in
# $RIG_TMP/NAME.pane. TUI_READY_SECS (default 60) bounds the wait for the prompt.
tui_session() {
	local name=$1 repo=$2 cmd=$3 ready=$4 done_re=$5 quit=$6 exit_re=$7
	rig_tmux_shell "$name" "$repo" || return 1
	rig_tmux send-keys -t "$name" "$cmd" Enter
	rig_tmux_wait "$name" "$ready" "${TUI_READY_SECS:-60}" || { echo "FAIL: $name: no prompt" >&2; return 1; }
	rig_tmux_type "$name" "hello RUN_TOOL" || { echo "FAIL: $name: input not echoed" >&2; return 1; }
	rig_tmux_wait "$name" "$done_re" 60 || { echo "FAIL: $name: no answer" >&2; return 1; }
	rig_tmux_type "$name" "$quit"
	rig_tmux_wait "$name" "$exit_re" 30 || { echo "FAIL: $name: did not exit" >&2; return 1; }
	rig_tmux capture-pane -p -t "$name" >"$RIG_TMP/$name.pane"
	rig_tmux kill-session -t "$name"
}

capture_claude() {
	local ver=$1 bin home repo sid
	local out="$OUT/claude-$ver" label="claude-$ver"
	bin=$(rig_claude_bin "$ver") || return 0
	home="$RIG_TMP/claude-$ver/home" repo="$RIG_TMP/claude-$ver/home/project"
	rig_make_home "$home" && rig_make_repo "$repo" && rig_seed_claude "$home" "$repo"
	rig_env "$home" "$bin"
	local yolo=--dangerously-skip-permissions

	sid=$(rig_uuid)
	(cd "$repo" && rig_run claude -p "hello RUN_TOOL" --session-id "$sid" $yolo)
	save "$(rig_claude_transcript "$home" "$repo" "$sid")" "$home" "$out/print.jsonl"
	(cd "$repo" && rig_run claude -p "again" --resume "$sid" $yolo)
	save "$(rig_claude_transcript "$home" "$repo" "$sid")" "$home" "$out/print-resume.jsonl"

	local settings
	settings=$(hook_settings "$RIG_TMP/claude-$ver" "$label")
	sid=$(rig_uuid)
	(cd "$repo" && rig_run claude -p "hello with context" --session-id "$sid" --settings "$settings" $yolo)
	(cd "$repo" && rig_run claude -p "resumed with context" --resume "$sid" --settings "$settings" $yolo)
	save "$(rig_claude_transcript "$home" "$repo" "$sid")" "$home" "$out/context.jsonl"
	verify "$label: fresh -p --settings SessionStart hook context reached the model" \
		"$(requests_with "HOOK_CONTEXT $label startup")"
	verify "$label: -p --resume --settings SessionStart hook context reached the model" \
		"$(requests_with "HOOK_CONTEXT $label resume")"

	sid=$(rig_uuid)
	tui_session "claude-${ver//./-}" "$repo" "claude --session-id $sid" \
		'for shortcuts|auto mode on' 'TOOL_DONE' /exit 'Resume this session with'
	save "$(rig_claude_transcript "$home" "$repo" "$sid")" "$home" "$out/interactive.jsonl"
}

# codex_exec ARGS... runs codex exec --json and prints the new thread id.
codex_exec() {
	rig_run codex exec "$@" </dev/null | jq -r 'select(.type == "thread.started") | .thread_id'
}

capture_codex() {
	local ver=$1 bin home repo id
	local out="$OUT/codex-$ver" label="codex-$ver"
	bin=$(rig_codex_bin "$ver") || return 0
	home="$RIG_TMP/codex-$ver/home" repo="$RIG_TMP/codex-$ver/home/project"
	rig_make_home "$home" && rig_make_repo "$repo" && rig_seed_codex "$home" "$repo"
	rig_env "$home" "$bin"
	local flags=(--json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox)

	id=$(cd "$repo" && codex_exec "${flags[@]}" "hello RUN_TOOL")
	[[ -n $id ]] || { echo "FAIL: codex exec reported no thread id"; return 1; }
	save "$(rig_codex_rollout "$home" "$id")" "$home" "$out/print.jsonl"
	(cd "$repo" && codex_exec resume "${flags[@]}" "$id" "again" >/dev/null)
	save "$(rig_codex_rollout "$home" "$id")" "$home" "$out/print-resume.jsonl"

	id=$(cd "$repo" && codex_exec -c "developer_instructions=\"$PACKET_MARKER\\nDEV_CONTEXT $label fresh\"" \
		"${flags[@]}" "hello with context")
	local instr="$RIG_TMP/codex-$ver/instructions.md"
	jq -r 'select(.type == "session_meta") | .payload.base_instructions.text' \
		"$(rig_codex_rollout "$home" "$id")" | head -c -1 >"$instr"
	printf '\n\n%s\nFILE_CONTEXT %s resume\n' "$PACKET_MARKER" "$label" >>"$instr"
	(cd "$repo" && codex_exec resume -c "model_instructions_file=\"$instr\"" "${flags[@]}" \
		"$id" "resumed with context" >/dev/null)
	save "$(rig_codex_rollout "$home" "$id")" "$home" "$out/context.jsonl"
	verify "$label: exec -c developer_instructions reached the model (fresh)" \
		"$(requests_with "DEV_CONTEXT $label fresh")"
	verify "$label: exec resume -c model_instructions_file reached the model" \
		"$(requests_with "FILE_CONTEXT $label resume")"
	verify "$label: base instructions kept on resume with model_instructions_file" \
		"$(jq -c 'select(.path == "/v1/responses") | .body.input[0].content[0].text' "$MOCK_LOG" |
			grep -F "FILE_CONTEXT $label" | grep -c 'You are a coding agent' || true)"

	local name="codex-${ver//./-}"
	tui_session "$name" "$repo" "codex --no-daemon" \
		'Ask Codex|for shortcuts' 'TOOL_DONE' /quit 'codex resume [0-9a-f-]+'
	id=$(grep -Eo 'codex resume [0-9a-f-]{36}' "$RIG_TMP/$name.pane" | sed -n 1p | cut -d' ' -f3)
	save "$(rig_codex_rollout "$home" "$id")" "$home" "$out/interactive.jsonl"
}

# gemini_save SRC HOME REPO DEST stores one Gemini fixture: scrubbed like the
# others, and the header's projectHash (SHA-256 of the real repo path)
# replaced by the hash of the scrubbed path, so the fixture stays
# self-consistent.
gemini_save() {
	local real scrubbed
	real=$(printf %s "$3" | sha256sum | cut -d' ' -f1)
	scrubbed=$(printf %s "${3/#$2//home/user}" | sha256sum | cut -d' ' -f1)
	save "$1" "$2" "$4"
	sed -i "s/$real/$scrubbed/g" "$4"
}

# capture_gemini VERSION: print mode with a tool call (--session-id), a
# print-mode resume (--resume), a session whose system prompt was replaced
# per run by GEMINI_SYSTEM_MD (default prompt + packet, fresh and resumed),
# and an interactive session in tmux; plus projects.json.
capture_gemini() {
	local ver=$1 bin home repo sid f
	local out="$GEMINI_OUT/$ver" label="gemini-$ver"
	bin=$(rig_gemini_bin "$ver") || return 0
	home="$RIG_TMP/gemini-$ver/home" repo="$RIG_TMP/gemini-$ver/home/project"
	rig_make_home "$home" && rig_make_repo "$repo" && rig_seed_gemini "$home"
	rig_env "$home" "$bin" && rig_gemini_env

	sid=$(rig_uuid)
	(cd "$repo" && rig_run gemini -p "hello RUN_TOOL" --session-id "$sid" --yolo </dev/null)
	f=$(rig_gemini_transcript "$home" "$sid")
	gemini_save "$f" "$home" "$repo" "$out/print.jsonl"
	(cd "$repo" && rig_run gemini -p "again" --resume "$sid" --yolo </dev/null)
	gemini_save "$f" "$home" "$repo" "$out/print-resume.jsonl"

	local sysmd="$RIG_TMP/gemini-$ver/system.md"
	sid=$(rig_uuid)
	(cd "$repo" && rig_run env GEMINI_WRITE_SYSTEM_MD="$sysmd.default" \
		gemini -p "dump prompt" --session-id "$sid" --yolo </dev/null >/dev/null)
	{ cat "$sysmd.default"; printf '\n\n%s\nSYSMD_CONTEXT %s\n' "$PACKET_MARKER" "$label"; } >"$sysmd"
	sid=$(rig_uuid)
	(cd "$repo" && rig_run env GEMINI_SYSTEM_MD="$sysmd" gemini -p "hello with context" --session-id "$sid" --yolo </dev/null)
	(cd "$repo" && rig_run env GEMINI_SYSTEM_MD="$sysmd" gemini -p "resumed with context" --resume "$sid" --yolo </dev/null)
	gemini_save "$(rig_gemini_transcript "$home" "$sid")" "$home" "$repo" "$out/context.jsonl"
	verify "$label: GEMINI_SYSTEM_MD packet reached the model (fresh + resumed)" \
		"$(jq -c 'select(.path | endswith("GenerateContent")) | .body.systemInstruction' "$MOCK_LOG" |
			grep -F "SYSMD_CONTEXT $label" | grep -c 'interactive CLI agent' || true)"
	verify "$label: default prompt dump cost a model request" "$(requests_with '"text":"dump prompt"')"

	sid=$(rig_uuid)
	tui_session "gemini-${ver//./-}" "$repo" "gemini --session-id $sid --yolo" \
		'Type your message' 'TOOL_DONE' /quit 'gemini --resume|Agent powering down'
	gemini_save "$(rig_gemini_transcript "$home" "$sid")" "$home" "$repo" "$out/interactive.jsonl"
	save "$home/.gemini/projects.json" "$home" "$out/projects.json"
	write_gemini_manifest
}

# write_gemini_manifest documents the Gemini fixtures for the reader's tests.
write_gemini_manifest() {
	cat >"$GEMINI_OUT/README.md" <<'EOF2'
# Real Gemini CLI chat files

Captured by `scripts/capture-fixtures.sh` (`capture_gemini`) from the real Gemini CLI
installed from npm, talking to `scripts/mockmodel`. Do not edit by hand: re-run the
script (`AI_MEMORY_CAPTURE_CLAUDE_VERSIONS= AI_MEMORY_CAPTURE_CODEX_VERSIONS=` captures
Gemini only). Host paths are scrubbed as in `../real/README.md` (`/home/user` is the
throwaway HOME, `/home/user/project` the repo); the header's `projectHash` is replaced by
SHA-256 of the scrubbed root, so it still matches its project. The mock answers
`hello RUN_TOOL` with one `run_shell_command {"command":"echo hello","description":"Print hello"}`.

| file | what was run | user prompts |
| --- | --- | --- |
| `<v>/print.jsonl` | `gemini -p "hello RUN_TOOL" --session-id <id> --yolo` | hello RUN_TOOL |
| `<v>/print-resume.jsonl` | the same file after `gemini -p "again" --resume <id> --yolo` (second header, `$set` history snapshot) | hello RUN_TOOL, again |
| `<v>/context.jsonl` | `GEMINI_SYSTEM_MD=<default prompt + packet>` with `-p "hello with context" --session-id <id>`, then `-p "resumed with context" --resume <id>` (the system prompt is not in the file) | hello with context, resumed with context |
| `<v>/interactive.jsonl` | TUI `gemini --session-id <id> --yolo` in tmux, typed `hello RUN_TOOL`, then `/quit` | hello RUN_TOOL |
| `<v>/projects.json` | the CLI's project root -> slug registry after those runs | |
EOF2
}

# write_manifest documents the fixtures for the readers' tests.
write_manifest() {
	cat >"$OUT/README.md" <<'EOF'
# Real native transcripts

Captured by `scripts/capture-fixtures.sh` (see docs/testing.md) from the real CLIs
installed from npm, talking to `scripts/mockmodel`. Do not edit by hand: re-run the
script. Host paths are scrubbed: `/home/user` is the throwaway HOME,
`/home/user/project` the git repo (the cwd, branch `main`), `/tmp/rig` the rig's
scratch dir; Claude's dashed project-dir form becomes `-home-user-project`.
Everything else is byte-identical to what the CLI wrote.

Mock replies: `ACK: <last user text[:40]>`; a prompt containing `RUN_TOOL` gets one
shell tool call running `echo hello` (Claude `Bash {"command":"echo hello","description":"Print hello"}`,
Codex `exec_command {"cmd":"echo hello"}`, Qwen `run_shell_command`); after the tool
result (the mock keeps only the `Output:` line of Qwen's shell block) the answer is
`TOOL_DONE: hello | ACK: <prompt>`.

| file | what was run | user prompts |
| --- | --- | --- |
| `claude-*/print.jsonl` | `claude -p "hello RUN_TOOL" --session-id <id> --dangerously-skip-permissions` | hello RUN_TOOL |
| `claude-*/print-resume.jsonl` | the same file after `claude -p "again" --resume <id>` (print.jsonl of the same capture is its prefix) | hello RUN_TOOL, again |
| `claude-*/context.jsonl` | fresh `-p "hello with context" --session-id <id> --settings <SessionStart hook>`, then `-p "resumed with context" --resume <id> --settings <same>`; the hook returns additionalContext `<!-- ai-memory:packet:v1 -->\nHOOK_CONTEXT claude-<v> startup` (or `resume`) | hello with context, resumed with context |
| `claude-*/interactive.jsonl` | TUI `claude --session-id <id>` in tmux, typed `hello RUN_TOOL`, then `/exit` | hello RUN_TOOL |
| `codex-*/print.jsonl` | `codex exec --json --skip-git-repo-check --dangerously-bypass-approvals-and-sandbox "hello RUN_TOOL"` | hello RUN_TOOL |
| `codex-*/print-resume.jsonl` | the same rollout after `codex exec resume --json ... <id> "again"` | hello RUN_TOOL, again |
| `codex-*/context.jsonl` | fresh `codex exec -c 'developer_instructions="<!-- ai-memory:packet:v1 -->\nDEV_CONTEXT codex-<v> fresh"' ... "hello with context"`, then `codex exec resume -c model_instructions_file=<base instructions + packet with FILE_CONTEXT> ... <id> "resumed with context"` | hello with context, resumed with context |
| `codex-*/interactive.jsonl` | TUI `codex --no-daemon` in tmux, typed `hello RUN_TOOL`, then `/quit` | hello RUN_TOOL |
| `pi-*/print.jsonl` | `pi -p "hello RUN_TOOL"` (1.x: `--session-id <uuid>`; 0.73.1 has no such flag) | hello RUN_TOOL |
| `pi-*/print-resume.jsonl` | the same file after `pi -p "again" --session <id>` | hello RUN_TOOL, again |
| `pi-*/context.jsonl` | fresh `pi -p "hello with context" --append-system-prompt <file>`, then `pi -p "resumed with context" --session <id> --append-system-prompt <file>`; the file holds `<!-- ai-memory:packet:v1 -->\nAPPEND_CONTEXT pi-<v> fresh` (then `resume`) | hello with context, resumed with context |
| `pi-*/interactive.jsonl` | TUI `pi` in tmux, typed `hello RUN_TOOL`, then `/quit` | hello RUN_TOOL |
| `qwen-*/print.jsonl` | `qwen --yolo "hello RUN_TOOL" --session-id <uuid>` (positional prompt = print mode; without `--yolo` no shell tool is offered) | hello RUN_TOOL |
| `qwen-*/print-resume.jsonl` | the same file after `qwen "again" -r <id>` | hello RUN_TOOL, again |
| `qwen-*/context.jsonl` | fresh `qwen "hello with context" --session-id <id> --append-system-prompt "<!-- ai-memory:packet:v1 -->\nAPPEND_CONTEXT qwen-<v> fresh"`, then `qwen "resumed with context" -r <id> --append-system-prompt "…resume"` (literal text; not written to the file) | hello with context, resumed with context |
| `qwen-*/interactive.jsonl` | TUI `qwen --session-id <uuid> --approval-mode yolo` in tmux, typed `hello RUN_TOOL`, then `/quit` | hello RUN_TOOL |
| `omp-*/print.jsonl` | `omp -p "hello RUN_TOOL"` (no caller id; the bash tool appends `Wall time: …`, which the mock drops) | hello RUN_TOOL |
| `omp-*/print-resume.jsonl` | the same file after `omp -p "again" --resume <id>` | hello RUN_TOOL, again |
| `omp-*/context.jsonl` | fresh `omp -p "hello with context" --append-system-prompt <file>`, then `omp -p "resumed with context" --resume <id> --append-system-prompt <file>` (file content sent; not written to the session) | hello with context, resumed with context |
| `omp-*/interactive.jsonl` | TUI `omp` in tmux, typed `hello RUN_TOOL`, then `/quit` | hello RUN_TOOL |
| `copilot-*/print.jsonl` | `copilot -p "hello RUN_TOOL" --session-id <uuid> --allow-all -s` (the session's `events.jsonl`) | hello RUN_TOOL |
| `copilot-*/print-resume.jsonl` | the same file after `copilot -p "again" --resume=<id>` | hello RUN_TOOL, again |
| `copilot-*/context.jsonl` | fresh `-p "hello with context" --session-id <uuid>`, then `-p "resumed with context" --resume=<id>`, both with `COPILOT_CUSTOM_INSTRUCTIONS_DIRS=<dir>` whose `ai-memory.instructions.md` holds `<!-- ai-memory:packet:v1 -->\nINSTR_CONTEXT copilot-<v> fresh` (then `resume`) | hello with context, resumed with context |
| `copilot-*/interactive.jsonl` | TUI `copilot --session-id <uuid>` in tmux, typed `hello RUN_TOOL`, then `/exit` | hello RUN_TOOL |
| `kimi-*/print.jsonl` | `kimi -p "hello RUN_TOOL"` (the session's `agents/main/wire.jsonl`; print mode runs tools unasked) | hello RUN_TOOL |
| `kimi-*/print-resume.jsonl` | the same file after `kimi -p "again" -S <id>` | hello RUN_TOOL, again |
| `kimi-*/context.jsonl` | fresh `kimi -p "hello with context" --agent-file <md>` (front matter, then `${base_prompt}` and `<!-- ai-memory:packet:v1 -->\nAGENT_CONTEXT kimi-<v> fresh`), then `kimi -p "resumed with context" -S <id>` (Kimi refuses `--agent-file` with `-S` and replays the prompt fixed at creation) | hello with context, resumed with context |
| `kimi-*/interactive.jsonl` | TUI `kimi --auto` in tmux, typed `hello RUN_TOOL`, then `/exit` | hello RUN_TOOL |
| `command-code-*/print.jsonl` | `command-code -p "hello RUN_TOOL" --yolo` (the session's `projects/<slug>/<uuid>.jsonl`) | hello RUN_TOOL |
| `command-code-*/print-resume.jsonl` | the same file after `command-code -p "again" --session <id> --yolo` | hello RUN_TOOL, again |
| `command-code-*/context.jsonl` | fresh `-p "hello with context" --mod <file.ts>`, then `-p "resumed with context" --session <id> --mod <file.ts>`; the mod's `appendSystemPrompt` hook returns `<!-- ai-memory:packet:v1 -->\nMOD_CONTEXT command-code-<v> fresh` (then `resume`) | hello with context, resumed with context |
| `command-code-*/interactive.jsonl` | TUI `command-code --yolo -t` in tmux, typed `hello RUN_TOOL`, then `/exit` | hello RUN_TOOL |

Where delivered context lands (an importer must not store it as conversation):
Claude writes `type:"attachment"` records: `attachment.type:"hook_success"` (raw hook
stdout in `stdout`) and `attachment.type:"hook_additional_context"` (`content: [text]`;
2.1.332 adds `rendered`/`renderedRole:"system"`); 2.1.332 repeats it in an
`api-request-blob` record (`message.role:"system"`). Codex records
`developer_instructions` as a `response_item` `message` with `role:"developer"` (its
first `input_text` part); the `model_instructions_file` text is not written to the
rollout.
Pi 1.x records the whole system prompt as a `message` entry with `role:"system"` and
`sections` (the `--append-system-prompt` text is `sections.addendum`), later turns a
system patch holding only the changed sections; 0.73.1 records no system prompt.
Qwen Code records no system prompt and no `--append-system-prompt` text; its
`type:"system"` records (`ui_telemetry`, `attribution_snapshot`,
`file_history_snapshot`) are bookkeeping, and a tool result is
`type:"tool_result"` with `message.role:"user"`.
oh-my-pi writes a fixed-length `title` record on line 1 (rewritten in place when the title
changes; the TUI's title request does that after the first turn) and the session header on
line 2; it records no system prompt.
Copilot writes the whole system prompt, custom instructions included, as a `system.message`
event (once per run, when it changed); `user.message` keeps the typed prompt in `content` and
the `<current_datetime>` block Copilot adds in `transformedContent`.
Kimi Code writes the whole system prompt (with an `--agent-file` body) once, in
`profile.bind.systemPrompt`; the conversation appears several times (`turn.prompt`,
`context.append_message`, loop events, `agent.message.appended`): the reader takes
`agent.message.appended`; injected reminders are `context.append_message` with
`origin.kind:"injection"`.
Command Code (a Pi-style v3 tree) does not write the text a `--mod` appends to the system
prompt, nor the system prompt itself.

Differences between versions of one CLI (the readers must handle all of them):
Claude 2.1.332 adds the `rendered`/`renderedRole` members and `api-request-blob`
records above. Codex 0.169.0 and 0.171.0 write the same record types
(`session_meta`, `world_state`, `turn_context`, `response_item`, `event_msg`,
`token_usage_record`) with the same payload members and the same base
instructions; 0.171.0 only adds `metadata.model_search_state` (`"unused"`) beside
the payload of `response_item` records.

## Versions captured

EOF
	local d
	for d in "$OUT"/*/; do
		if [[ -e $d/print.jsonl ]]; then echo "- \`$(basename "$d")\`"; fi
	done >>"$OUT/README.md"
}

for v in $CAPTURE_CLAUDE; do capture_claude "$v"; done
for v in $CAPTURE_CODEX; do capture_codex "$v"; done
# shellcheck source=capture-fixtures-opencode.sh
source scripts/capture-fixtures-opencode.sh
for v in $CAPTURE_OPENCODE; do capture_opencode "$v"; done
for v in $CAPTURE_GEMINI; do capture_gemini "$v"; done
for v in $CAPTURE_PI; do capture_pi "$v"; done
for v in $CAPTURE_QWEN; do capture_qwen "$v"; done
for v in $CAPTURE_OMP; do capture_omp "$v"; done
for v in $CAPTURE_CRUSH; do capture_crush "$v"; done
for v in $CAPTURE_GROK; do capture_grok "$v"; done
for v in $CAPTURE_KIRO; do capture_kiro "$v"; done
for v in $CAPTURE_COPILOT; do capture_copilot "$v"; done
for v in $CAPTURE_KIMI; do capture_kimi "$v"; done
for v in $CAPTURE_COMMANDCODE; do capture_commandcode "$v"; done

echo "phone-home attempts refused by the mock: $(grep -c '"phone_home":true' "$MOCK_LOG" || true)"
echo "total fixture size: $(du -sb "$OUT" | cut -f1) bytes"
write_manifest
touch "$OUT/READY"
