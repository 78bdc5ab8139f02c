# shellcheck shell=bash
# capture_qwen VERSION (sourced by scripts/capture-fixtures.sh): Qwen Code
# fixtures into $OUT/qwen-VERSION/.
#   print.jsonl         qwen --yolo "hello RUN_TOOL" --session-id <uuid>
#                       (without --yolo print mode offers no shell tool)
#   print-resume.jsonl  the same file after qwen "again" -r <id>
#   context.jsonl       fresh + resumed with --append-system-prompt <text>
#                       holding the packet marker (fresh / resumed text)
#   interactive.jsonl   TUI qwen --session-id <uuid> in tmux, typed
#                       hello RUN_TOOL, then /quit
capture_qwen() {
	local ver=$1 bin home repo id f
	local out="$OUT/qwen-$ver" label="qwen-$ver"
	bin=$(rig_qwen_bin "$ver") || return 0
	home="$RIG_TMP/qwen-$ver/home" repo="$RIG_TMP/qwen-$ver/home/project"
	rig_make_home "$home" && rig_make_repo "$repo" && rig_seed_qwen "$home"
	rig_env "$home" "$bin"
	rig_qwen_env

	id=$(rig_uuid)
	(cd "$repo" && rig_run qwen --yolo "hello RUN_TOOL" --session-id "$id" </dev/null)
	f=$(rig_qwen_transcript "$home" "$repo" "$id")
	save "$f" "$home" "$out/print.jsonl"
	(cd "$repo" && rig_run qwen "again" -r "$id" </dev/null)
	save "$f" "$home" "$out/print-resume.jsonl"

	id=$(rig_uuid)
	(cd "$repo" && rig_run qwen "hello with context" --session-id "$id" \
		--append-system-prompt "$PACKET_MARKER
APPEND_CONTEXT $label fresh" </dev/null)
	(cd "$repo" && rig_run qwen "resumed with context" -r "$id" \
		--append-system-prompt "$PACKET_MARKER
APPEND_CONTEXT $label resume" </dev/null)
	save "$(rig_qwen_transcript "$home" "$repo" "$id")" "$home" "$out/context.jsonl"
	verify "$label: fresh --append-system-prompt text reached the model" \
		"$(requests_with "APPEND_CONTEXT $label fresh")"
	verify "$label: -r <id> --append-system-prompt text reached the model (resumed)" \
		"$(requests_with "APPEND_CONTEXT $label resume")"

	id=$(rig_uuid)
	tui_session "qwen-${ver//./-}" "$repo" "qwen --session-id $id --approval-mode yolo" \
		'Type your message' 'TOOL_DONE' /quit 'To continue this session' || return 0
	save "$(rig_qwen_transcript "$home" "$repo" "$id")" "$home" "$out/interactive.jsonl"
}
