# shellcheck shell=bash
# capture_kimi VERSION (sourced by scripts/capture-fixtures.sh): Kimi Code
# fixtures, each the session's agents/main/wire.jsonl.
#   print.jsonl         kimi -p "hello RUN_TOOL" (print mode runs tools unasked)
#   print-resume.jsonl  the same file after kimi -p "again" -S <id>
#   context.jsonl       fresh kimi -p "hello with context" --agent-file <md>
#                       (${base_prompt} + the packet marker), then a plain
#                       -S resume (--agent-file is refused with -S)
#   interactive.jsonl   TUI kimi --auto in tmux, typed hello RUN_TOOL, /exit
capture_kimi() {
	local ver=$1 bin home repo id f agent
	local out="$OUT/kimi-$ver" label="kimi-$ver"
	bin=$(rig_kimi_bin "$ver") || return 0
	home="$RIG_TMP/kimi-$ver/home" repo="$RIG_TMP/kimi-$ver/home/project"
	rig_make_home "$home" && rig_make_repo "$repo" && rig_seed_kimi "$home" "$repo"
	rig_env "$home" "$bin" && rig_kimi_env

	(cd "$repo" && rig_run kimi -p "hello RUN_TOOL" </dev/null)
	f=$(rig_kimi_transcript "$home") id=$(rig_kimi_session_id "$f")
	save "$f" "$home" "$out/print.jsonl"
	(cd "$repo" && rig_run kimi -p "again" -S "$id" </dev/null)
	save "$f" "$home" "$out/print-resume.jsonl"

	agent="$RIG_TMP/kimi-$ver/ai-memory-handoff.md"
	printf -- '---\nname: ai-memory-handoff\ndescription: Kimi Code with the ai-memory handoff packet\n---\n${base_prompt}\n\n%s\nAGENT_CONTEXT %s fresh\n' \
		"$PACKET_MARKER" "$label" >"$agent"
	(cd "$repo" && rig_run kimi -p "hello with context" --agent-file "$agent" </dev/null)
	f=$(rig_kimi_transcript "$home") id=$(rig_kimi_session_id "$f")
	(cd "$repo" && rig_run kimi -p "resumed with context" -S "$id" </dev/null)
	save "$f" "$home" "$out/context.jsonl"
	verify "$label: fresh --agent-file packet reached the model" "$(requests_with "AGENT_CONTEXT $label fresh")"
	verify "$label: --agent-file kept the default prompt" \
		"$(grep -F "AGENT_CONTEXT $label" "$MOCK_LOG" | grep -c 'You are Kimi Code' || true)"

	tui_session "kimi-${ver//./-}" "$repo" "kimi --auto" \
		'mock-model' 'TOOL_DONE' /exit 'To resume this session' || return 0
	save "$(rig_kimi_transcript "$home")" "$home" "$out/interactive.jsonl"
}
