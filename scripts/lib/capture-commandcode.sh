# shellcheck shell=bash
# capture_commandcode VERSION (sourced by scripts/capture-fixtures.sh):
# Command Code fixtures, each the session's projects/<slug>/<uuid>.jsonl.
#   print.jsonl         command-code -p "hello RUN_TOOL" --yolo
#   print-resume.jsonl  the same file after -p "again" --session <id>
#   context.jsonl       fresh + resumed with --mod <file.ts> whose
#                       appendSystemPrompt hook returns the packet marker
#                       (fresh / resumed text)
#   interactive.jsonl   TUI command-code --yolo -t in tmux, typed hello
#                       RUN_TOOL, then /exit
commandcode_mod() {
	jq -rn --arg t "$PACKET_MARKER
MOD_CONTEXT $2" '"export default function (cmd: any) {\n  cmd.hooks({ appendSystemPrompt: () => \($t | tojson) });\n}"' >"$1"
}

capture_commandcode() {
	local ver=$1 bin home repo id f mod
	local out="$OUT/command-code-$ver" label="command-code-$ver"
	bin=$(rig_commandcode_bin "$ver") || return 0
	home="$RIG_TMP/cc-$ver/home" repo="$RIG_TMP/cc-$ver/home/project"
	rig_make_home "$home" && rig_make_repo "$repo" && rig_seed_commandcode "$home"
	rig_env "$home" "$bin" && rig_commandcode_env

	(cd "$repo" && rig_run command-code -p "hello RUN_TOOL" --yolo </dev/null)
	f=$(rig_commandcode_transcript "$home") id=$(rig_commandcode_session_id "$f")
	save "$f" "$home" "$out/print.jsonl"
	(cd "$repo" && rig_run command-code -p "again" --session "$id" --yolo </dev/null)
	save "$f" "$home" "$out/print-resume.jsonl"

	mod="$RIG_TMP/cc-$ver/handoff.ts"
	commandcode_mod "$mod" "$label fresh"
	(cd "$repo" && rig_run command-code -p "hello with context" --mod "$mod" </dev/null)
	f=$(rig_commandcode_transcript "$home") id=$(rig_commandcode_session_id "$f")
	commandcode_mod "$mod" "$label resume"
	(cd "$repo" && rig_run command-code -p "resumed with context" --session "$id" --mod "$mod" </dev/null)
	save "$f" "$home" "$out/context.jsonl"
	verify "$label: fresh --mod appendSystemPrompt reached the model" "$(requests_with "MOD_CONTEXT $label fresh")"
	verify "$label: --session --mod appendSystemPrompt reached the model (resumed)" "$(requests_with "MOD_CONTEXT $label resume")"

	tui_session "cc-${ver//./-}" "$repo" "command-code --yolo -t" \
		'Ask your question' 'TOOL_DONE' /exit 'Resume this session' || return 0
	save "$(rig_commandcode_transcript "$home")" "$home" "$out/interactive.jsonl"
}
