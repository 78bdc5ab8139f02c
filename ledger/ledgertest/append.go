package ledgertest

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/redact"
)

func testAppend_DropsBlankCapsAndRedacts(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	ws := mustWorkstream(t, db, "w")
	huge := strings.Repeat("é", ledger.MaxContentBytes) // 2 bytes per rune: cut must be rune-safe
	in := []ledger.EventInput{
		{Harness: "claude", Kind: ledger.KindMessage, Content: "  \n\t "},
		{Harness: "claude", Kind: ledger.KindMessage, SourceRecordID: "big", Content: huge,
			Metadata: map[string]any{"token": "ghp_0123456789abcdefghij0123456789", "n": 3}},
		{Harness: "claude", Kind: ledger.KindMessage, SourceRecordID: "big", Content: huge}, // duplicate in batch
	}
	res := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: in})
	if res.Added != 1 || res.Dropped != 1 || res.Skipped != 1 {
		t.Fatalf("append = %+v; want 1 added, 1 dropped, 1 skipped", res)
	}
	ev, ok, err := db.LatestEvent(ctx, ws.ID, ledger.KindMessage)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if len(ev.Content) > ledger.MaxContentBytes || !strings.HasSuffix(ev.Content, ledger.TruncationMarker) || !utf8.ValidString(ev.Content) {
		t.Fatalf("stored content: %d bytes, valid utf8 %v", len(ev.Content), utf8.ValidString(ev.Content))
	}
	if ev.EventID != ledger.EventID(in[1]) {
		t.Fatal("the id must hash the full redacted content, not the capped one")
	}
	if got, want := ev.Metadata["token"], redact.String("ghp_0123456789abcdefghij0123456789"); got != want || ev.Metadata["n"] != float64(3) {
		t.Fatalf("metadata = %v; want redacted token %q", ev.Metadata, want)
	}
	if _, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, Events: []ledger.EventInput{{Harness: "claude", Kind: "bogus", Content: "x"}}}); err == nil {
		t.Fatal("an unknown kind was accepted")
	}
	if _, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, RunID: "../x", Events: msgs("s", 0, 1, "x")}); err == nil {
		t.Fatal("a run id with a path was accepted")
	}
}

func testEventsInRange_NewestLimitOldestFirst(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	ws := mustWorkstream(t, db, "w")
	mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, Events: msgs("s", 0, 10, "e")})
	tests := []struct {
		after, through int64
		limit          int
		want           []int64
	}{
		{0, 10, 3, []int64{8, 9, 10}},
		{2, 6, 0, []int64{3, 4, 5, 6}},
		{5, 5, 10, nil},
		{7, 100, 10, []int64{8, 9, 10}},
	}
	for _, tt := range tests {
		evs, err := db.EventsInRange(ctx, ws.ID, tt.after, tt.through, tt.limit)
		must(t, err)
		var got []int64
		for _, e := range evs {
			got = append(got, e.Sequence)
		}
		if !equalInts(got, tt.want) {
			t.Errorf("EventsInRange(%d, %d, %d) = %v; want %v", tt.after, tt.through, tt.limit, got, tt.want)
		}
	}
	if seq, _ := db.LatestSequence(ctx, ws.ID); seq != 10 {
		t.Fatalf("LatestSequence = %d", seq)
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// testAppend_Prepared: a ledger that prepares batches ahead of their Append
// (ledger.Preparer) stores what it prepared: the events of an unprepared
// Append with the same ids, redacted, findable by search, even when the
// batch's events were changed after Prepare; appending it again adds
// nothing; a Prepared value the ledger did not make is ignored, and that
// batch is redacted as any other.
func testAppend_Prepared(t *testing.T, be Backend) {
	ctx := context.Background()
	db, _ := openTest(t, be)
	p, ok := db.Ledger.(ledger.Preparer)
	if !ok {
		t.Skip("this backend does not prepare batches ahead")
	}
	secret := "ghp_0123456789abcdefghij0123456789"
	long := strings.Repeat("prepared texts keep every word ", 20) // long enough to be packed
	in := msgs("s", 0, 3, "x")
	in[0].Content, in[1].Content, in[2].Content = "token "+secret, long, " \n "
	want := []string{redact.String(in[0].Content), long}
	ids := []string{ledger.EventID(in[0]), ledger.EventID(in[1])}
	ws := mustWorkstream(t, db, "prepared")
	b := p.Prepare(ledger.Batch{WorkstreamID: ws.ID, Events: in})
	in[0].Content = "changed after Prepare " + secret
	if res := mustAppend(t, db, b); res.Added != 2 || res.Dropped != 1 {
		t.Fatalf("append of the prepared batch = %+v; want 2 added, 1 dropped", res)
	}
	evs, err := db.EventsInRange(ctx, ws.ID, 0, 10, 0)
	if err != nil || len(evs) != 2 {
		t.Fatalf("EventsInRange = %d events, %v; want 2", len(evs), err)
	}
	for i, e := range evs {
		if e.Content != want[i] || e.EventID != ids[i] {
			t.Errorf("event %d = %q (id %s); want %q (id %s)", i, e.Content, e.EventID, want[i], ids[i])
		}
	}
	if found, err := db.Search(ctx, ws.ID, "texts keep", 0); err != nil || len(found) != 1 || found[0].EventID != ids[1] {
		t.Errorf("search of the prepared text = %d events, %v; want the long one", len(found), err)
	}
	if res := mustAppend(t, db, b); res.Added != 0 || res.Skipped != 2 {
		t.Errorf("second append of the prepared batch = %+v; want 2 skipped", res)
	}
	forged := ledger.Batch{WorkstreamID: ws.ID, Events: msgs("s", 5, 1, "x"), Prepared: "not this ledger's"}
	forged.Events[0].Content = "forged " + secret
	mustAppend(t, db, forged)
	ev, ok, err := db.LatestEvent(ctx, ws.ID, ledger.KindMessage)
	if err != nil || !ok || ev.Content != redact.String("forged "+secret) {
		t.Fatalf("stored %q (%v, %v); want the forged batch's event redacted", ev.Content, ok, err)
	}
}
