#!/usr/bin/env bash
# Acceptance (issue 12's matrix): one workstream visited once by every
# harness whose real CLI runs offline here, in a fixed order, in one
# repository and one HOME with every rig seeded, against the mock:
#   opencode run --auto "opencode turn RUN_TOOL"   (fresh, a tool call)
#   gemini -p "gemini turn", claude -p "claude turn", codex exec "codex turn",
#   pi -p "pi turn", qwen "qwen turn", omp -p "omp turn",
#   copilot -p "copilot turn", kimi -p "kimi turn" (fresh: --agent-file),
#   command-code -p "command-code turn"
# all print mode, each through `ai-memory run`. Checks: the ledger holds the
# sessions in that order, each prompt once, one native session each; from
# the mock's request log, every agent request of each harness carried the
# packet exactly once, holding every earlier harness's prompt (and the first
# one's tool call) and none of its own or a later one's; no user config file
# or repository file changed; no phone-home but OMP's catalog lookups. A
# harness whose CLI cannot be installed is reported SKIP and left out.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/acceptance.sh
source scripts/lib/acceptance.sh

acc_setup
ORDER=(opencode gemini claude codex pi qwen omp copilot kimi command-code)
# The model API path of each harness's agent requests.
declare -A WIRE=([opencode]=chat/completions [gemini]=GenerateContent [claude]=messages
	[codex]=responses [pi]=chat/completions [qwen]=chat/completions [omp]=chat/completions
	[copilot]=chat/completions [kimi]=chat/completions [command-code]=chat/completions)
declare -A BIN=()
# matrix_bin HARNESS prints the PATH prefix of its CLI (fails when it
# cannot be installed; rig_install prints the SKIP reason).
matrix_bin() {
	case $1 in
	opencode) rig_opencode_bin "$OPENCODE_VERSION" ;;
	gemini) rig_gemini_bin "$GEMINI_VERSION" ;;
	claude) rig_claude_bin "$ACC_CLAUDE_VERSION" ;;
	codex) rig_codex_bin "$CODEX_VERSION" ;;
	pi) rig_pi_bin "$PI_VERSION" ;;
	qwen) rig_qwen_bin "$QWEN_VERSION" ;;
	omp) rig_omp_bin "$OMP_VERSION" ;;
	copilot) rig_copilot_bin "$COPILOT_VERSION" ;;
	kimi) rig_kimi_bin "$KIMI_VERSION" ;;
	command-code) rig_commandcode_bin "$COMMANDCODE_VERSION" ;;
	esac
}
order=()
for h in "${ORDER[@]}"; do
	if b=$(matrix_bin "$h"); then
		BIN[$h]=$b order+=("$h")
	else
		echo "SKIP: $h could not be installed; left out of the matrix"
	fi
done
if ((${#order[@]} < 2)); then
	echo "SKIP: acceptance-matrix needs at least two installed harnesses"
	exit 0
fi
echo "order: ${order[*]}"

# Seeds (Claude's and Codex's come from acc_setup).
for h in "${order[@]}"; do
	case $h in
	opencode) rig_seed_opencode "$HOME_DIR" "$OPENCODE_VERSION" ;;
	gemini) rig_seed_gemini "$HOME_DIR" ;;
	pi) rig_seed_pi "$HOME_DIR" ;;
	qwen) rig_seed_qwen "$HOME_DIR" ;;
	omp) rig_seed_omp "$HOME_DIR" ;;
	copilot) rig_seed_copilot "$HOME_DIR" "$REPO" ;;
	kimi) rig_seed_kimi "$HOME_DIR" "$REPO" ;;
	command-code) rig_seed_commandcode "$HOME_DIR" ;;
	esac
done

# matrix_env HARNESS sets RIG_ENV to exactly what that harness's own
# acceptance script runs it with: its PATH and its switches only (the rigs'
# switches collide: Copilot's XDG_CACHE_HOME, Qwen's OPENAI_* which OMP
# would probe with).
matrix_env() {
	rig_env "$HOME_DIR" "$(dirname "$AIM")" "${BIN[$1]}"
	RIG_ENV+=("AI_MEMORY_HOME=$RIG_TMP/amdata")
	case $1 in
	opencode) rig_opencode_env "$HOME_DIR" ;;
	gemini) rig_gemini_env ;;
	pi) rig_pi_env ;;
	qwen) rig_qwen_env ;;
	copilot) rig_copilot_env ;;
	kimi) rig_kimi_env ;;
	command-code) rig_commandcode_env ;;
	esac
}

# prompt_of HARNESS: its print-mode prompt (the first one calls a tool).
prompt_of() {
	if [[ $1 == "${order[0]}" ]]; then echo "$1 turn RUN_TOOL"; else echo "$1 turn"; fi
}
# sent_of HARNESS: the prompt as the CLI sends and stores it: `opencode run`
# quotes a message argument that holds a space.
sent_of() {
	if [[ $1 == opencode ]]; then echo "\"$(prompt_of "$1")\""; else prompt_of "$1"; fi
}
# matrix_run HARNESS PROMPT runs one print-mode turn through ai-memory.
matrix_run() {
	local h=$1 p=$2 expect="ACK: $2"
	[[ $p == *RUN_TOOL ]] && expect="TOOL_DONE: hello"
	matrix_env "$h"
	case $h in
	opencode) aim_step "$h" "$expect" run opencode run --auto "$p" ;;
	gemini) aim_step "$h" "$expect" run gemini -p "$p" ;;
	claude) aim_step "$h" "$expect" run claude -p "$p" --dangerously-skip-permissions ;;
	codex) aim_step "$h" "$expect" run codex exec --skip-git-repo-check "$p" ;;
	qwen) aim_step "$h" "$expect" run --yolo qwen "$p" ;;
	copilot) aim_step "$h" "$expect" run copilot -p "$p" --yolo -s ;;
	command-code) aim_step "$h" "$expect" run command-code -p "$p" --yolo ;;
	*) aim_step "$h" "$expect" run "$h" -p "$p" ;; # pi, omp, kimi
	esac
}

# User config files ai-memory must never edit, and the repository. Files a
# CLI rewrites itself on every start are left out, as ~/.claude.json is:
# Copilot's config.json ("managed automatically": it adds firstLaunchAt)
# and Command Code's config.json (it adds "installed"); for those, the
# seeded settings must still be there (managed_ok).
configs=("$HOME_DIR/.codex/config.toml")
for f in .config/opencode/opencode.json .gemini/settings.json .pi/agent/models.json .pi/agent/settings.json \
	.qwen/settings.json .omp/agent/models.yml .omp/agent/config.yml \
	.kimi-code/config.toml .commandcode/providers.json; do
	[[ -f $HOME_DIR/$f ]] && configs+=("$HOME_DIR/$f")
done
sums() { sha256sum "${configs[@]}"; (cd "$REPO" && git status --porcelain && git ls-files -s); }
sums_before=$(sums)
# managed_ok: the CLI-managed files still hold every seeded setting.
declare -A MANAGED=()
for f in .copilot/config.json .commandcode/config.json; do
	[[ -f $HOME_DIR/$f ]] && MANAGED[$f]=$(grep -v '^//' "$HOME_DIR/$f")
done
managed_ok() {
	local f
	for f in "${!MANAGED[@]}"; do
		grep -v '^//' "$HOME_DIR/$f" | jq -e --argjson seed "${MANAGED[$f]}" 'contains($seed)' >/dev/null || return 1
	done
}

t0=$SECONDS
log_mark m0
i=0
for h in "${order[@]}"; do
	s=$SECONDS
	[[ $h == omp ]] && log_mark omp0
	matrix_run "$h" "$(prompt_of "$h")" || true
	i=$((i + 1))
	log_mark "m$i"
	[[ $h == omp ]] && log_mark omp1
	echo "  ($h: $((SECONDS - s)) s)"
done
echo "  (${#order[@]} runs: $((SECONDS - t0)) s)"

# requests FROM TO PATH_RE TEXT: the POST requests logged between two marks
# whose path matches PATH_RE and that carry TEXT (the harness's prompt: side
# requests that do not carry it are left out).
requests() {
	log_slice "$1" "$2" | jq -c --arg re "$3" 'select(.method == "POST" and (.path | test($re)) and (.path | test("count_?[tT]okens") | not))' |
		grep -F -- "$4" || true
}
has_markers() { [[ $(marker_count) == "$1" ]]; }
# packet_all: every string of a request (stdin) that belongs to the packet:
# the one with the marker and, where a delivery splits it (Claude's hook
# parts), those holding its event headings.
packet_all() {
	jq -r --arg m "$PACKET_MARKER" '[.body | .. | strings | select(contains($m) or test(" · event [0-9]+"))] | join("\n")'
}
packet_has() { [[ $(packet_all) == *"$1"* ]]; }
packet_lacks() { [[ $(packet_all) != *"$1"* ]]; }

i=0
for h in "${order[@]}"; do
	p=$(prompt_of "$h")
	reqs=$(requests "m$i" "m$((i + 1))" "${WIRE[$h]}" "$p")
	if ((i == 0)); then
		check "$h: agent requests carry no packet (nothing to hand over)" all_lines has_markers 0 <<<"$reqs"
	else
		check "$h: every agent request carries the packet exactly once" all_lines has_markers 1 <<<"$reqs"
		first=$(head -n 1 <<<"$reqs")
		missing=() extra=()
		for e in "${order[@]:0:i}"; do packet_has "$(prompt_of "$e")" <<<"$first" || missing+=("$e"); done
		packet_has "echo hello" <<<"$first" || missing+=("${order[0]}'s tool call")
		for e in "${order[@]:i}"; do packet_lacks "$(prompt_of "$e")" <<<"$first" || extra+=("$e"); done
		check "$h: packet holds every earlier harness's prompt${missing:+ (missing: ${missing[*]})}" eq "${#missing[@]}" 0
		check "$h: packet holds none of its own or later prompts${extra:+ (has: ${extra[*]})}" eq "${#extra[@]}" 0
		case $h in
		# Gemini: GEMINI_SYSTEM_MD = its own prompt + the packet.
		gemini) check "gemini: the packet is in systemInstruction, after Gemini's own prompt" \
			bash -c 'grep -q "^You are a non-interactive CLI agent" <<<"$1" && [[ ${1#*ai-memory:packet} != "$1" ]]' _ \
			"$(jq -r '.body.systemInstruction | [.. | objects | select(has("text")) | .text] | join("\n")' <<<"$first")" ;;
		# Kimi, fresh: --agent-file = ${base_prompt} + the packet.
		kimi) check "kimi: the packet came with Kimi's default prompt (--agent-file)" \
			bash -c '[[ $1 == *"You are Kimi Code"* ]]' _ "$(packet_all <<<"$first")" ;;
		esac
	fi
	i=$((i + 1))
done

acc_events || true
seqs=() counts="" want=""
for h in "${order[@]}"; do
	seqs+=("$(first_seq "$h" message "$(prompt_of "$h")")")
	counts+="$(count_exact "$h" message "$(sent_of "$h")")/" want+="1/"
done
check "ledger: ${order[*]} in order" ordered "${seqs[@]}"
check "ledger: each prompt imported exactly once" eq "$counts" "$want"
check "ledger: one native session per harness" eq \
	"$(ev '[group_by(.harness)[] | map(.native_session_id) | unique | length] | add')" "${#order[@]}"
check "ledger: no event holds the packet" \
	eq "$(ev --arg m "$PACKET_MARKER" '[.[] | select(.content | contains($m))] | length')" 0
sums_after=$(sums)
check "no user config or repository file changed (${#configs[@]} configs)" eq "$sums_after" "$sums_before"
[[ $sums_after == "$sums_before" ]] || diff <(echo "$sums_before") <(echo "$sums_after") || true
check "CLI-managed config files (${!MANAGED[*]}) kept every seeded setting" managed_ok
# OMP looks up its model catalog and keyless providers' models on every run
# (acceptance-omp.sh); any other refused outbound request, or one of those
# outside OMP's run, is phone-home.
omp_catalog='^(catalog\.stencil\.so|coding-intl\.dashscope\.aliyuncs\.com|hyper\.charm\.land|api\.commandcode\.ai|api\.kilo\.ai|api\.venice\.ai|zenmux\.ai):443$'
phone_home() { jq -r 'select(.phone_home == true) | .host'; }
allowed=0
if [[ -n ${ACC_MARKS[omp0]:-} ]]; then
	allowed=$(log_slice omp0 omp1 | phone_home | grep -cE "$omp_catalog" || true)
fi
check "mock: no phone-home but OMP's catalog lookups during its run ($allowed)" eq \
	"$(phone_home <"$MOCK_LOG" | wc -l | tr -d ' ')" "$allowed"
echo "  (total: ${SECONDS} s)"
acc_finish
