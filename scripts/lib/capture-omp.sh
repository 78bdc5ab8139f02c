# shellcheck shell=bash
# capture_omp VERSION (sourced by scripts/capture-fixtures.sh): oh-my-pi
# fixtures into $OUT/omp-VERSION/.
#   print.jsonl         omp -p "hello RUN_TOOL" (OMP takes no session id)
#   print-resume.jsonl  the same file after omp -p "again" --resume <id>
#   context.jsonl       fresh + resumed with --append-system-prompt <file>
#                       holding the packet marker (fresh / resumed text)
#   interactive.jsonl   TUI omp in tmux, typed hello RUN_TOOL, then /quit
capture_omp() {
	local ver=$1 bin home repo id f pkt
	local out="$OUT/omp-$ver" label="omp-$ver"
	bin=$(rig_omp_bin "$ver") || return 0
	home="$RIG_TMP/omp-$ver/home" repo="$RIG_TMP/omp-$ver/home/project"
	rig_make_home "$home" && rig_make_repo "$repo" && rig_seed_omp "$home"
	rig_env "$home" "$bin"

	(cd "$repo" && rig_run omp -p "hello RUN_TOOL" </dev/null)
	f=$(rig_omp_transcript "$home") id=$(rig_omp_session_id "$f")
	save "$f" "$home" "$out/print.jsonl"
	(cd "$repo" && rig_run omp -p "again" --resume "$id" </dev/null)
	save "$f" "$home" "$out/print-resume.jsonl"

	pkt="$RIG_TMP/omp-$ver/packet.md"
	printf '%s\nAPPEND_CONTEXT %s fresh\n' "$PACKET_MARKER" "$label" >"$pkt"
	(cd "$repo" && rig_run omp -p "hello with context" --append-system-prompt "$pkt" </dev/null)
	f=$(rig_omp_transcript "$home") id=$(rig_omp_session_id "$f")
	printf '%s\nAPPEND_CONTEXT %s resume\n' "$PACKET_MARKER" "$label" >"$pkt"
	(cd "$repo" && rig_run omp -p "resumed with context" --resume "$id" --append-system-prompt "$pkt" </dev/null)
	save "$f" "$home" "$out/context.jsonl"
	verify "$label: fresh --append-system-prompt file reached the model" \
		"$(requests_with "APPEND_CONTEXT $label fresh")"
	verify "$label: --resume <id> --append-system-prompt file reached the model (resumed)" \
		"$(requests_with "APPEND_CONTEXT $label resume")"

	TUI_READY_SECS=120 tui_session "omp-${ver//./-}" "$repo" "omp" 'mock-model|Mock Model' 'TOOL_DONE' /quit 'Resume this session with' || return 0
	save "$(rig_omp_transcript "$home")" "$home" "$out/interactive.jsonl"
}
