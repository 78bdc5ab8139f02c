package main

import (
	"os/exec"
	"slices"
	"sort"
	"strings"
	"testing"
)

// allowedImports is the package layering of docs/architecture.md: which of
// our packages each package may import. Dependencies flow one way.
var allowedImports = map[string][]string{
	"cmd/ai-memory":     {"launcher", "ledger", "ledgersync", "ledger/sqlite", "ledger/postgres", "repo", "sessionindex", "harness", "transcript", "harness/harnesstest", "history", "webui", "mcpserver"},
	"mcpserver":         {"history", "ledger"},
	"webui":             {"history", "ledger"},
	"history":           {"ledger"},
	"launcher":          {"agentproc", "handoff", "harness", "ledger", "ledgersync", "repo", "sessionindex", "transcript", "watch"},
	"handoff":           {"transcript"},
	"ledger":            {"redact"},
	"ledger/sqlite":     {"ledger", "ledger/durable", "ledger/rank", "redact"},
	"ledger/durable":    {"ledger", "redact"},
	"ledger/rank":       nil,
	"ledger/postgres":   {"ledger", "ledger/durable", "ledger/rank"},
	"ledgersync":        {"ledger", "ledger/durable"},
	"ledger/ledgertest": {"ledger", "redact"},
	"agentproc":         nil,
	"harness":           {"transcript"},
	"redact":            nil,
	"repo":              nil,
	"sessionindex":      nil,
	"transcript":        nil,
	"watch":             nil,
}

// testOnlyImports may be imported by any package's in-package tests on top
// of allowedImports: a ledger backend, so that a test has a ledger to use
// while the package itself holds only a ledger.Ledger, the backends'
// conformance suite, and the durable copy (a test reads segments).
var testOnlyImports = []string{"ledger/sqlite", "ledger/ledgertest", "ledger/durable"}

func TestLayering(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not available")
	}
	const mod = "github.com/ai-memory/ai-memory/"
	out, err := exec.Command("go", "list", "-test", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		pkg := strings.TrimPrefix(fields[0], mod)
		if strings.Contains(pkg, " ") || strings.Contains(pkg, "[") || strings.HasSuffix(pkg, ".test") {
			continue // test variants are checked through their base package
		}
		allowed, known := allowedImports[pkg]
		if !known {
			continue // internal helpers, scripts, tests' own packages
		}
		testVariant := len(fields) > 1 && strings.HasPrefix(fields[1], "[")
		for _, imp := range fields[1:] {
			dep, ours := strings.CutPrefix(imp, mod)
			if !ours || strings.Contains(dep, "internal") || testVariant && slices.Contains(testOnlyImports, dep) {
				continue
			}
			if i := sort.SearchStrings(sorted(allowed), dep); i >= len(allowed) || sorted(allowed)[i] != dep {
				t.Errorf("%s imports %s: not allowed by docs/architecture.md", pkg, dep)
			}
		}
	}
}

func sorted(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}
