package ledger

import "testing"

func TestEventID(t *testing.T) {
	base := EventInput{Harness: "claude", NativeSessionID: "s", SourceRecordID: "r", BlockIndex: 1, Kind: KindMessage, Content: "c"}
	if EventID(base) != EventID(base) || len(EventID(base)) != 64 {
		t.Fatal("EventID is not a deterministic hex SHA-256")
	}
	variants := map[string]func(*EventInput){
		"harness": func(e *EventInput) { e.Harness = "codex" },
		"session": func(e *EventInput) { e.NativeSessionID = "t" },
		"record":  func(e *EventInput) { e.SourceRecordID = "q" },
		"block":   func(e *EventInput) { e.BlockIndex = 2 },
		"kind":    func(e *EventInput) { e.Kind = KindToolCall },
		"content": func(e *EventInput) { e.Content = "d" },
		"join":    func(e *EventInput) { e.NativeSessionID, e.SourceRecordID = "s\x00r", "" },
	}
	for name, mod := range variants {
		e := base
		mod(&e)
		if EventID(e) == EventID(base) {
			t.Errorf("changing %s does not change the id", name)
		}
	}
	e := base
	e.Role, e.Metadata = "assistant", map[string]any{"k": 1}
	if EventID(e) != EventID(base) {
		t.Error("role/metadata changed the id; they are not part of the identity")
	}
}
