package durable

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/ledger"
)

// encodeWithJSON is the reference: what EncodeSegment wrote through
// encoding/json before it encoded records by hand.
func encodeWithJSON(t testing.TB, recs []Record) []byte {
	var buf []byte
	for i := range recs {
		r := recs[i]
		if r.IDDerived {
			r.EventID = ""
		}
		b, err := json.Marshal(&r)
		if err != nil {
			t.Fatal(err)
		}
		buf = append(append(buf, b...), '\n')
	}
	return buf
}

// encodeStrings are the string values the corpus draws from: every class
// of byte encoding/json treats specially, at every offset of an 8-byte word.
var encodeStrings = []string{
	"", "a", "hello world", "exactly8", "sixteen bytes!!!", strings.Repeat("x", 4096),
	`quote " backslash \ slash /`, "<script>alert('x')</script> & more", "tab\tnewline\ncr\rbs\bff\f",
	"\x00\x01\x1f\x7f control", "héllo wörld ✓ 日本語 🎉", "line\u2028sep\u2029para",
	"bad utf8 \xff\xfe end", "truncated rune \xe6\x97", "\xed\xa0\x80 surrogate", "[REDACTED]",
	strings.Repeat("abcdefg<", 9), strings.Repeat("\u00e9", 13) + "&",
}

// randomString mixes corpus pieces with random bytes, so special bytes
// land at every position of a word.
func randomString(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(6) {
		switch r.IntN(3) {
		case 0:
			b.WriteString(encodeStrings[r.IntN(len(encodeStrings))])
		case 1:
			for range r.IntN(20) {
				b.WriteByte(byte(r.IntN(256)))
			}
		default:
			for range r.IntN(40) {
				b.WriteByte(byte(0x20 + r.IntN(0x60)))
			}
		}
	}
	return b.String()
}

// randomRecord fills every field, leaving the omitempty ones empty at
// random.
func randomRecord(r *rand.Rand, i int) Record {
	pick := func(s string) string {
		if r.IntN(3) == 0 {
			return ""
		}
		return s
	}
	rec := Record{V: RecordVersion, WorkstreamID: randomString(r), RunID: pick(randomString(r)),
		Sequence: r.Int64N(1 << 40), EventID: randomString(r), Harness: randomString(r),
		NativeSessionID: pick(randomString(r)), SourceRecordID: pick(randomString(r)), BlockIndex: r.IntN(100) - 1,
		Kind: ledger.Kind(randomString(r)), Role: pick(randomString(r)), Content: randomString(r),
		CreatedAt: time.UnixMicro(r.Int64N(4e15)).UTC()}
	if r.IntN(2) == 0 {
		rec.Order = r.Int64N(1<<40) - 5
	}
	if r.IntN(2) == 0 {
		at := time.Unix(r.Int64N(4e9), r.Int64N(1e9)).In(time.FixedZone("x", 3600*(r.IntN(25)-12)))
		rec.OccurredAt = &at
	}
	switch r.IntN(3) {
	case 0:
		rec.Metadata = map[string]any{}
	case 1:
		rec.Metadata = map[string]any{randomString(r): randomString(r), "n": float64(i), "b": true, "nil": nil,
			"list": []any{randomString(r), 1.5}, "nested": map[string]any{"<k>": randomString(r)}}
	}
	return rec
}

// EncodeSegment writes exactly encoding/json's bytes: segment names hash
// them and readers of old segments rely on the format.
func TestEncodeSegment_MatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	recs := []Record{{}, {V: 1, Content: "only content"}}
	zero := time.Time{}
	recs = append(recs, Record{V: 1, OccurredAt: &zero, Metadata: map[string]any{}})
	for _, s := range encodeStrings {
		recs = append(recs, Record{V: 1, Content: s, SourceRecordID: s, Role: s})
	}
	for i := range 3000 {
		recs = append(recs, randomRecord(r, i))
	}
	got, err := EncodeSegment(recs)
	if err != nil {
		t.Fatal(err)
	}
	want := encodeWithJSON(t, recs)
	if !bytes.Equal(got, want) {
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := range min(len(gl), len(wl)) {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("record %d:\n got %q\nwant %q", i, gl[i], wl[i])
			}
		}
		t.Fatalf("got %d lines, want %d", len(gl), len(wl))
	}
}

// A time encoding/json refuses (a year past 9999) is refused here too.
func TestEncodeSegment_BadTime(t *testing.T) {
	late := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, rec := range []Record{{CreatedAt: late}, {OccurredAt: &late}} {
		if _, err := EncodeSegment([]Record{rec}); err == nil {
			t.Errorf("EncodeSegment(%v) succeeded; want the time refused", rec)
		}
	}
}

// Any string encodes as encoding/json encodes it.
func FuzzAppendString(f *testing.F) {
	for _, s := range encodeStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}

// BenchmarkEncodeSegment compares the hand encoder with encoding/json on
// 400 import-like records of ~4 KB.
func BenchmarkEncodeSegment(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	recs := make([]Record, 400)
	now := time.Unix(1_700_000_000, 0).UTC()
	for i := range recs {
		var content strings.Builder
		for content.Len() < 4000 {
			content.WriteString("func main() {\n\tfmt.Println(\"hello\")\n}\n// a comment with <html> & words ")
			content.WriteString(strings.Repeat("plain prose of a transcript, mostly ASCII. ", 1+r.IntN(8)))
		}
		recs[i] = Record{V: 1, WorkstreamID: "01a23379-418d-7e83-adca-4c46712bf4fb", RunID: "run", Sequence: int64(i + 1),
			EventID: strings.Repeat("ab", 32), Harness: "claude", NativeSessionID: "s", SourceRecordID: "r", Kind: ledger.KindMessage,
			Role: "assistant", OccurredAt: &now, Content: content.String(), CreatedAt: now}
	}
	b.Run("hand", func(b *testing.B) {
		for b.Loop() {
			if _, err := EncodeSegment(recs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		for b.Loop() {
			encodeWithJSON(b, recs)
		}
	})
}
