package harness

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/ai-memory/ai-memory/transcript"
)

// Descriptor is everything ai-memory knows about one coding-agent CLI. The
// launcher, the commands and the session index ask it; no package outside
// the harness's own files names a harness.
type Descriptor struct {
	// Name is the canonical harness key used by every package (ledger rows,
	// session index runtime, `ai-memory run <name>`).
	Name string
	// Aliases are other accepted spellings of Name.
	Aliases []string
	// Product is the CLI's name for people ("Claude Code").
	Product string
	// Executable is the default program name looked up on PATH.
	Executable string
	// Install is how to install the CLI, for the not-found message.
	Install string
	// Tested lists the CLI versions this descriptor's facts (flags, store,
	// record shapes, delivery) were checked against, oldest first: run
	// offline against the mock where the CLI installs here, read from its
	// code otherwise. `ai-memory doctor` warns when the installed version is
	// newer than the last one.
	Tested []string
	// VersionArgs asks the CLI for its version (nil means "--version");
	// doctor parses the first version-looking token of the output.
	VersionArgs []string
	// Check reports what in the user's setup would defeat this harness's
	// per-run handoff delivery (a setting that disables our hook, a
	// malformed variable we must merge with); nil when nothing can. It
	// reads files and the environment only, never runs the CLI.
	Check func(CheckEnv) []Finding
	// SessionEnv names the variables the CLI sets in the shells it runs,
	// holding the current native session id (`sessions start` detection).
	SessionEnv []string
	// Planner turns native argv into launch plans.
	Planner Planner
	// Source reads the CLI's native store, read-only.
	Source transcript.Source
	// Hooks are the entry points the CLI calls during a managed run, by
	// event name: `ai-memory hook <name> <event>`.
	Hooks map[string]Hook
	// MCPToolName is the name under which the CLI shows tool `tool` of the
	// MCP server `server` to the model (Claude Code: mcp__<server>__<tool>),
	// for the packet's text. Nil when the CLI cannot be given an MCP server
	// for one launch without editing user config: the launcher then leaves
	// Decision.MCP nil and the packet names only the shell command.
	MCPToolName func(server, tool string) string
	// PromptsOnly is true when the Source can decode only the user's
	// prompts from the store (Antigravity: its replies and tool steps are
	// undocumented protobuf): no reply, tool call or tool result of this
	// harness ever reaches the ledger, and the packets other harnesses get
	// hold only its prompts. Doctor and the docs say so; the shared e2e
	// scenarios that check an imported tool result skip it.
	PromptsOnly bool
}

// MCPServerName is the key under which `ai-memory run` registers
// `ai-memory mcp` in every harness.
const MCPServerName = "ai-memory"

// Hook is one hook entry point. A hook must never break the agent: the
// command reports its error on stderr and exits 0.
type Hook func(stdin io.Reader, stdout io.Writer, getenv func(string) string) error

// registryIndex maps every lower-case name and alias to its descriptor.
type registryIndex struct {
	list   []Descriptor
	byName map[string]int
}

// newRegistry indexes ds; it panics on a duplicate name or alias or an
// incomplete descriptor, because that is a programming error that must fail
// at start, not at lookup time.
func newRegistry(ds ...Descriptor) registryIndex {
	r := registryIndex{byName: map[string]int{}}
	for i, d := range ds {
		if d.Name == "" || d.Executable == "" || d.Planner == nil || d.Source == nil || d.Source.Harness() != d.Name {
			panic(fmt.Sprintf("harness: incomplete descriptor %q", d.Name))
		}
		for _, n := range append([]string{d.Name}, d.Aliases...) {
			key := strings.ToLower(n)
			if _, dup := r.byName[key]; dup {
				panic(fmt.Sprintf("harness: duplicate name %q", n))
			}
			r.byName[key] = i
		}
		r.list = append(r.list, d)
	}
	return r
}

// Lookup returns the harness with the given canonical name or alias,
// case-insensitively.
func Lookup(name string) (Descriptor, bool) {
	i, ok := registry.byName[strings.ToLower(strings.TrimSpace(name))]
	if !ok {
		return Descriptor{}, false
	}
	return registry.list[i], true
}

// All returns the built-in harnesses in registry order.
func All() []Descriptor {
	return append([]Descriptor(nil), registry.list...)
}

// Names returns the canonical harness names, sorted, for usage hints.
func Names() []string {
	names := make([]string, 0, len(registry.list))
	for _, d := range registry.list {
		names = append(names, d.Name)
	}
	sort.Strings(names)
	return names
}

// Usage lists the harnesses for help texts: "claude (claude-code), codex"
// style, in registry order.
func Usage() string {
	parts := make([]string, 0, len(registry.list))
	for _, d := range registry.list {
		p := d.Name
		if len(d.Aliases) > 0 {
			p += " (" + strings.Join(d.Aliases, ", ") + ")"
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}

// UnknownError is the one message for a harness name that is not registered.
func UnknownError(name string) error {
	return fmt.Errorf("unknown harness %q; known harnesses: %s", name, strings.Join(Names(), ", "))
}

// StoreEnv returns every registered source's store-override variables, each
// once, for the launcher to drop when blank (blank means unset for us, so it
// must mean the same for the agent).
func StoreEnv() []string {
	var out []string
	for _, d := range registry.list {
		for _, k := range d.Source.StoreEnv() {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// Runtime is a native session detected from the environment of the shell
// we run in.
type Runtime struct {
	Name, SessionID string
}

// DetectRuntimes lists, in registry order, the harnesses whose session
// variables are set in getenv's environment.
func DetectRuntimes(getenv func(string) string) []Runtime {
	var out []Runtime
	for _, d := range registry.list {
		for _, k := range d.SessionEnv {
			if id := strings.TrimSpace(getenv(k)); id != "" {
				out = append(out, Runtime{Name: d.Name, SessionID: id})
				break
			}
		}
	}
	return out
}
