package history

import "github.com/ai-memory/ai-memory/ledger"

// CompileForTest compiles a summary of bare events (tests of the tool parsing).
func CompileForTest(evs []ledger.EventInput, root string) Summary {
	var s Summary
	list := make([]ledger.Event, len(evs))
	for i, e := range evs {
		list[i].EventInput = e
	}
	s.compile(list, root)
	return s
}
