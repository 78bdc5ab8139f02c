# shellcheck shell=bash
# capture_pi VERSION (sourced by scripts/capture-fixtures.sh): Pi fixtures.
#   print.jsonl         pi -p "hello RUN_TOOL" (1.x: --session-id <uuid>)
#   print-resume.jsonl  the same file after pi -p "again" --session <id>
#   context.jsonl       fresh + resumed with --append-system-prompt <file>
#                       holding the packet marker (fresh / resumed text)
#   interactive.jsonl   TUI in tmux, typed hello RUN_TOOL, then /quit
# pi_save SRC HOME DEST is save plus the cache path scrubbed: Pi 1.x
# writes the paths of its own docs (under the install cache) into the
# recorded system prompt.
pi_save() {
	save "$@"
	python3 - "$3" "$RIG_CACHE" /cache <<'PY'
import sys
p, old, new = sys.argv[1:]
data = open(p, 'rb').read().replace(old.encode(), new.encode())
open(p, 'wb').write(data)
PY
}

capture_pi() {
	local ver=$1 bin home repo id f pkt
	local out="$OUT/pi-$ver" label="pi-$ver"
	bin=$(rig_pi_bin "$ver") || return 0
	home="$RIG_TMP/pi-$ver/home" repo="$RIG_TMP/pi-$ver/home/project"
	rig_make_home "$home" && rig_make_repo "$repo" && rig_seed_pi "$home"
	rig_env "$home" "$bin"
	rig_pi_env
	local fresh=()
	[[ $ver == 0.* ]] || fresh=(--session-id "$(rig_uuid)")

	(cd "$repo" && rig_run pi -p "hello RUN_TOOL" "${fresh[@]}" </dev/null)
	f=$(rig_pi_transcript "$home" "$repo") id=$(rig_pi_session_id "$f")
	pi_save "$f" "$home" "$out/print.jsonl"
	(cd "$repo" && rig_run pi -p "again" --session "$id" </dev/null)
	pi_save "$f" "$home" "$out/print-resume.jsonl"

	pkt="$RIG_TMP/pi-$ver/packet.md"
	printf '%s\nAPPEND_CONTEXT %s fresh\n' "$PACKET_MARKER" "$label" >"$pkt"
	[[ $ver == 0.* ]] || fresh=(--session-id "$(rig_uuid)")
	(cd "$repo" && rig_run pi -p "hello with context" "${fresh[@]}" --append-system-prompt "$pkt" </dev/null)
	f=$(rig_pi_transcript "$home" "$repo") id=$(rig_pi_session_id "$f")
	printf '%s\nAPPEND_CONTEXT %s resume\n' "$PACKET_MARKER" "$label" >"$pkt"
	(cd "$repo" && rig_run pi -p "resumed with context" --session "$id" --append-system-prompt "$pkt" </dev/null)
	pi_save "$f" "$home" "$out/context.jsonl"
	verify "$label: fresh --append-system-prompt file reached the model" \
		"$(requests_with "APPEND_CONTEXT $label fresh")"
	verify "$label: --session <id> --append-system-prompt file reached the model (resumed)" \
		"$(requests_with "APPEND_CONTEXT $label resume")"

	local name="pi-${ver//./-}"
	local done_re='^rig\$ *$'
	[[ $ver == 0.* ]] || done_re='To resume this session'
	tui_session "$name" "$repo" "pi" 'mock-model' 'TOOL_DONE' /quit "$done_re" || return 0
	pi_save "$(rig_pi_transcript "$home" "$repo")" "$home" "$out/interactive.jsonl"
}
