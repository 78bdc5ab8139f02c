package sqlite

import (
	"context"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/ledger"
)

func TestPackText(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 4096)
	for i := range noise {
		noise[i] = byte(r.IntN(256))
	}
	prose := strings.Repeat("the lease is renewed every thirty seconds; ", 20)
	for _, tc := range []struct {
		name   string
		text   string
		packed bool
	}{
		{"empty", "", false},
		{"short", "a short prompt", false},
		{"just under the minimum", strings.Repeat("a", minPackedText-1), false},
		{"compressible", prose, true},
		{"incompressible", string(noise), false},
		{"long tool output (default mode)", strings.Repeat(prose, 40), true},
		{"not UTF-8", strings.Repeat("\xff\xfe bad bytes ", 30), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := packText(tc.text)
			if _, isBlob := v.([]byte); isBlob != tc.packed {
				t.Fatalf("packText(%d bytes) stored as %T; want packed = %v", len(tc.text), v, tc.packed)
			}
			if b, ok := v.([]byte); ok && len(b) > len(tc.text)-len(tc.text)/10 {
				t.Fatalf("packed %d bytes into %d: saves less than a tenth", len(tc.text), len(b))
			}
			got, err := unpackText(v)
			if err != nil || got != tc.text {
				t.Fatalf("unpackText(packText(x)) = %.40q, %v; want x back", got, err)
			}
		})
	}
}

func TestUnpackText_Damaged(t *testing.T) {
	_, err := unpackText([]byte{0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3})
	if err == nil || !strings.Contains(err.Error(), "ai-memory ledger rebuild") {
		t.Fatalf("unpackText(damaged) = %v; want an error naming the rebuild", err)
	}
	huge := binary.AppendUvarint(nil, 1<<31) // a length no stored text has
	if _, err := unpackText(append(huge, 0)); err == nil || !strings.Contains(err.Error(), "over the") {
		t.Fatalf("unpackText(2 GiB length) = %v; want it refused unallocated", err)
	}
	if _, err := unpackText(int64(3)); err == nil {
		t.Fatal("unpackText(int64) succeeded; want an error")
	}
}

func FuzzPackText(f *testing.F) {
	f.Add("")
	f.Add(strings.Repeat("ai-memory lease ", 20))
	f.Add(strings.Repeat("\x00\xff", 200))
	f.Fuzz(func(t *testing.T, s string) {
		got, err := unpackText(packText(s))
		if err != nil || got != s {
			t.Fatalf("round trip of %d bytes = %d bytes, %v", len(s), len(got), err)
		}
		unpackText([]byte(s)) // any stored bytes: an error or a text, never a panic
	})
}

// Long event text is stored packed, and every reader sees the text: event
// reads, search (candidates are unpacked in Go, the index reads through
// the view), dedupe of a replay, and a rebuild from the segments.
func TestAppend_StoresTextPacked(t *testing.T) {
	ctx := context.Background()
	db, _ := openTest(t)
	ws := mustWorkstream(t, db, "w")
	long := func(i int) string {
		return fmt.Sprintf("event %d zqpacked %s", i, strings.Repeat("the packed ledger text repeats itself. ", 10))
	}
	evs := msgs("s", 0, 40, "short")
	for i := range evs {
		if i%2 == 0 {
			evs[i].Content = long(i)
		}
	}
	if r := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "r", Events: evs}); r.Added != 40 {
		t.Fatalf("append = %+v", r)
	}
	check := func(when string) {
		t.Helper()
		var blobs, texts int
		must(t, db.sql.QueryRow(`SELECT SUM(typeof(content) = 'blob'), SUM(typeof(content) = 'text') FROM events`).Scan(&blobs, &texts))
		if blobs != 20 || texts != 20 {
			t.Fatalf("%s: %d packed and %d plain rows; want 20 and 20", when, blobs, texts)
		}
		got, err := db.EventsInRange(ctx, ws.ID, 0, 100, 0)
		must(t, err)
		for i, e := range got {
			if e.Content != evs[i].Content || e.EventID != ledger.EventID(evs[i]) {
				t.Fatalf("%s: event %d = %.40q (%s); want %.40q", when, i, e.Content, e.EventID, evs[i].Content)
			}
		}
		hits, err := db.Search(ctx, ws.ID, "zqpacked", 100)
		if err != nil || len(hits) != 20 || !strings.Contains(hits[0].Content, "packed ledger text") {
			t.Fatalf("%s: Search = %d hits, %v", when, len(hits), err)
		}
		if r := mustAppend(t, db, ledger.Batch{WorkstreamID: ws.ID, RunID: "r", Events: evs}); r.Added != 0 || r.Skipped != 40 {
			t.Fatalf("%s: replay = %+v; want all skipped", when, r)
		}
		assertFTSIntact(t, db)
	}
	check("after append")
	if _, err := db.Rebuild(ctx); err != nil {
		t.Fatal(err)
	}
	check("after rebuild")
}
