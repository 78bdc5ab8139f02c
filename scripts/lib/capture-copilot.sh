# shellcheck shell=bash
# capture_copilot VERSION (sourced by scripts/capture-fixtures.sh): GitHub
# Copilot CLI fixtures, each the session's events.jsonl.
#   print.jsonl         copilot -p "hello RUN_TOOL" --session-id <uuid> --allow-all
#   print-resume.jsonl  the same file after copilot -p "again" --resume=<id>
#   context.jsonl       fresh + resumed with COPILOT_CUSTOM_INSTRUCTIONS_DIRS
#                       naming a dir whose *.instructions.md holds the
#                       packet marker (fresh / resumed text)
#   interactive.jsonl   TUI copilot --session-id <uuid> in tmux, typed
#                       hello RUN_TOOL, then /exit
# copilot_save SRC HOME DEST is save plus the extraction cache path scrubbed
# (Copilot records paths of its own bundled files).
copilot_save() {
	save "$@"
	python3 - "$3" "$RIG_CACHE" /cache <<'PY'
import sys
p, old, new = sys.argv[1:]
data = open(p, 'rb').read().replace(old.encode(), new.encode())
open(p, 'wb').write(data)
PY
}

capture_copilot() {
	local ver=$1 bin home repo sid instr
	local out="$OUT/copilot-$ver" label="copilot-$ver"
	bin=$(rig_copilot_bin "$ver") || return 0
	home="$RIG_TMP/copilot-$ver/home" repo="$RIG_TMP/copilot-$ver/home/project"
	rig_make_home "$home" && rig_make_repo "$repo" && rig_seed_copilot "$home" "$repo"
	rig_env "$home" "$bin" && rig_copilot_env

	sid=$(rig_uuid)
	(cd "$repo" && rig_run copilot -p "hello RUN_TOOL" --session-id "$sid" --allow-all -s </dev/null)
	copilot_save "$(rig_copilot_transcript "$home" "$sid")" "$home" "$out/print.jsonl"
	(cd "$repo" && rig_run copilot -p "again" --resume="$sid" --allow-all -s </dev/null)
	copilot_save "$(rig_copilot_transcript "$home" "$sid")" "$home" "$out/print-resume.jsonl"

	instr="$RIG_TMP/copilot-$ver/instructions"
	mkdir -p "$instr"
	printf '%s\nINSTR_CONTEXT %s fresh\n' "$PACKET_MARKER" "$label" >"$instr/ai-memory.instructions.md"
	sid=$(rig_uuid)
	(cd "$repo" && rig_run env COPILOT_CUSTOM_INSTRUCTIONS_DIRS="$instr" \
		copilot -p "hello with context" --session-id "$sid" --allow-all -s </dev/null)
	printf '%s\nINSTR_CONTEXT %s resume\n' "$PACKET_MARKER" "$label" >"$instr/ai-memory.instructions.md"
	(cd "$repo" && rig_run env COPILOT_CUSTOM_INSTRUCTIONS_DIRS="$instr" \
		copilot -p "resumed with context" --resume="$sid" --allow-all -s </dev/null)
	copilot_save "$(rig_copilot_transcript "$home" "$sid")" "$home" "$out/context.jsonl"
	verify "$label: fresh COPILOT_CUSTOM_INSTRUCTIONS_DIRS reached the model" \
		"$(requests_with "INSTR_CONTEXT $label fresh")"
	verify "$label: --resume COPILOT_CUSTOM_INSTRUCTIONS_DIRS reached the model (resumed)" \
		"$(requests_with "INSTR_CONTEXT $label resume")"

	sid=$(rig_uuid)
	tui_session "copilot-${ver//./-}" "$repo" "copilot --session-id $sid" \
		'mock-model' 'TOOL_DONE' /exit 'copilot --resume' || return 0
	copilot_save "$(rig_copilot_transcript "$home" "$sid")" "$home" "$out/interactive.jsonl"
}
