package harness

import (
	"fmt"
	"sort"
	"strings"
)

// registry is the explicit list of built-in harnesses. Adding a harness means
// adding one file and one line here.
var registry = newRegistry(
	claude{},
	codex{},
)

// registryIndex maps every lower-case name and alias to its harness.
type registryIndex struct {
	list   []Harness
	byName map[string]Harness
}

// newRegistry indexes hs; it panics on a duplicate name or alias, because that
// is a programming error that must fail at start, not at lookup time.
func newRegistry(hs ...Harness) registryIndex {
	r := registryIndex{byName: map[string]Harness{}}
	for _, h := range hs {
		for _, n := range append([]string{h.Name()}, h.Aliases()...) {
			key := strings.ToLower(n)
			if _, dup := r.byName[key]; dup {
				panic(fmt.Sprintf("harness: duplicate name %q", n))
			}
			r.byName[key] = h
		}
		r.list = append(r.list, h)
	}
	return r
}

// Lookup returns the harness with the given canonical name or alias,
// case-insensitively ("claude", "claude-code", "codex").
func Lookup(name string) (Harness, bool) {
	h, ok := registry.byName[strings.ToLower(strings.TrimSpace(name))]
	return h, ok
}

// All returns the built-in harnesses in registry order.
func All() []Harness {
	return append([]Harness(nil), registry.list...)
}

// Names returns the canonical harness names, sorted, for usage hints.
func Names() []string {
	names := make([]string, 0, len(registry.list))
	for _, h := range registry.list {
		names = append(names, h.Name())
	}
	sort.Strings(names)
	return names
}
