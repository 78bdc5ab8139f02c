package harness

import (
	"regexp"
	"strings"
	"sync"
)

// Helpers shared by the per-harness planners. They only look at argv before a
// literal "--", because everything after it is a prompt or a file name the
// user typed, not an option.

// wrapperYolo is the wrapper's own token, accepted anywhere in native argv.
const wrapperYolo = "--yolo"

// optionsEnd returns the index of the first "--", or len(args).
func optionsEnd(args []string) int {
	for i, a := range args {
		if a == "--" {
			return i
		}
	}
	return len(args)
}

// stripYolo removes every exact "--yolo" token before "--" and reports
// whether there was one. It never modifies args.
func stripYolo(args []string) ([]string, bool) {
	end := optionsEnd(args)
	out := make([]string, 0, len(args))
	found := false
	for i, a := range args {
		if i < end && a == wrapperYolo {
			found = true
			continue
		}
		out = append(out, a)
	}
	return out, found
}

// isFlag reports whether arg is one of names, bare or as name=value.
func isFlag(arg string, names ...string) bool {
	for _, n := range names {
		if arg == n || strings.HasPrefix(arg, n+"=") {
			return true
		}
	}
	return false
}

// hasFlag reports whether any option before "--" is one of names.
func hasFlag(args []string, names ...string) bool {
	return flagIndex(args, names...) >= 0
}

// flagIndex returns the index of the first option before "--" that is one of
// names, or -1.
func flagIndex(args []string, names ...string) int {
	for i, a := range args[:optionsEnd(args)] {
		if isFlag(a, names...) {
			return i
		}
	}
	return -1
}

// lastFlagIndex returns the index of the last option before "--" that is one
// of names, or -1. CLIs built on commander and clap keep the last value.
func lastFlagIndex(args []string, names ...string) int {
	idx := -1
	for i, a := range args[:optionsEnd(args)] {
		if isFlag(a, names...) {
			idx = i
		}
	}
	return idx
}

// flagValueAt returns the value of the option at args[i]: the part after '='
// or, for a bare flag, the next element unless it starts with '-'. valueIdx
// is the index holding the value (i itself for name=value), or -1.
func flagValueAt(args []string, i int) (value string, valueIdx int) {
	if k := strings.IndexByte(args[i], '='); k >= 0 && strings.HasPrefix(args[i], "-") {
		return args[i][k+1:], i
	}
	if i+1 < len(args) && args[i+1] != "--" && !strings.HasPrefix(args[i+1], "-") {
		return args[i+1], i + 1
	}
	return "", -1
}

// insertAt returns a copy of args with extra inserted at index i.
func insertAt(args []string, i int, extra ...string) []string {
	out := make([]string, 0, len(args)+len(extra))
	out = append(out, args[:i]...)
	out = append(out, extra...)
	return append(out, args[i:]...)
}

// appendOptions adds extra at the end of the options, before any "--", so
// the user's trailing prompt stays a prompt.
func appendOptions(args []string, extra ...string) []string {
	return insertAt(args, optionsEnd(args), extra...)
}

// shellQuote quotes argv for the POSIX shell that runs Claude's hook
// commands: each word in single quotes, embedded quotes as '\”.
func shellQuote(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(words, " ")
}

var uuidPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
})

// isUUID reports whether s is a UUID in its canonical text form (any
// version, either case).
func isUUID(s string) bool { return uuidPattern().MatchString(s) }
