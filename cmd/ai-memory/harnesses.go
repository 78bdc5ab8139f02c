package main

import (
	"strings"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/sessionindex"
)

// runSuggestion names the commands that start a first session, one per
// registered harness: "`ai-memory run a` or `ai-memory run b`".
func runSuggestion() string {
	names := harness.Names()
	cmds := make([]string, len(names))
	for i, n := range names {
		cmds[i] = "`ai-memory run " + n + "`"
	}
	return strings.Join(cmds, " or ")
}

// detectedFrom lists the variables `sessions start` detects the runtime
// from, in the order they are tried.
func detectedFrom() string {
	var vars []string
	for _, d := range harness.All() {
		vars = append(vars, d.SessionEnv...)
	}
	return strings.Join(append(vars, "AI_MEMORY_HARNESS"), ", ")
}

// canonicalRuntime maps a harness alias to its canonical name; other
// runtime names (agents we do not launch) are left for the session index
// to validate.
func canonicalRuntime(rt string) string {
	if d, ok := harness.Lookup(rt); ok {
		return d.Name
	}
	return rt
}

// detectRuntime is the runtime and native id of the agent whose shell we
// are in, from the registered harnesses' session variables (first in
// registry order), else from the launcher's AI_MEMORY_HARNESS.
func detectRuntime(getenv func(string) string) (runtime, nativeID string) {
	var native []sessionindex.Native
	for _, r := range harness.DetectRuntimes(getenv) {
		native = append(native, sessionindex.Native{Runtime: r.Name, ID: r.SessionID})
	}
	rt, id := sessionindex.DetectRuntime(getenv, native)
	return canonicalRuntime(rt), id
}
