package sessionindex

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// canonicalWithExtras is a file in exactly the form we write, carrying keys
// that only another tool knows about, at both levels, and non-ASCII text.
const canonicalWithExtras = `{
  "sessions": [
    {
      "id": "20260804-1641-codex",
      "runtime": "codex",
      "native_session_id": "019fcbef-aaaa",
      "started": "2026-08-04T16:41:42Z",
      "ended": null,
      "status": "active",
      "focus": "fix <the> é bug & more",
      "cwd": "/x",
      "tags": [
        "a",
        {
          "k": 1
        }
      ]
    }
  ],
  "latest_session": "20260804-1641-codex",
  "history_limit": 20,
  "schema": 1,
  "zz_tool": {
    "v": "x"
  }
}
`

func TestRoundTripIsByteStable(t *testing.T) {
	ix, err := parseIndex([]byte(canonicalWithExtras))
	if err != nil {
		t.Fatal(err)
	}
	out, err := encodeFile(ix)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != canonicalWithExtras {
		t.Fatalf("round trip changed the file:\n%s", out)
	}
	if got := string(ix.Sessions[0].Extra["cwd"]); got != `"/x"` {
		t.Fatalf("record extra cwd = %s", got)
	}
	if got := string(ix.Extra["schema"]); got != "1" {
		t.Fatalf("top-level extra schema = %s", got)
	}
}

// A foreign writer's formatting of values we do not change is kept: its
// timestamps with offsets and fractions, \u escapes, absent keys.
func TestUnchangedForeignValuesKeepTheirBytes(t *testing.T) {
	in := `{"zeta": true, "history_limit": 5, "sessions": [` +
		`{"status": "ended", "id": "20260801-0900-claude", "runtime": "claude", "native_session_id": "n1", "started": "2026-08-01T09:00:00.123456+00:00", "ended": "2026-08-01T10:00:00+00:00", "focus": "caf\u00e9"},` +
		`{"id": "20260802-0900-codex", "runtime": "codex", "native_session_id": "n2", "started": "2026-08-02T09:00:00Z", "status": "active", "alpha": [1, 2]}` +
		`], "latest_session": "20260802-0900-codex", "alpha": null}`
	ix, err := parseIndex([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	ix.Sessions[1].Status = StatusEnded // changed value: written our way
	out, err := encodeFile(ix)
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "sessions": [
    {
      "id": "20260801-0900-claude",
      "runtime": "claude",
      "native_session_id": "n1",
      "started": "2026-08-01T09:00:00.123456+00:00",
      "ended": "2026-08-01T10:00:00+00:00",
      "status": "ended",
      "focus": "caf\u00e9"
    },
    {
      "id": "20260802-0900-codex",
      "runtime": "codex",
      "native_session_id": "n2",
      "started": "2026-08-02T09:00:00Z",
      "status": "ended",
      "alpha": [
        1,
        2
      ]
    }
  ],
  "latest_session": "20260802-0900-codex",
  "history_limit": 5,
  "alpha": null,
  "zeta": true
}
`
	if string(out) != want {
		t.Fatalf("got:\n%s\nwant:\n%s", out, want)
	}
	if ix.Sessions[0].Focus != "café" || ix.Sessions[0].Started.Format(timeLayout) != "2026-08-01T09:00:00Z" {
		t.Fatalf("values not decoded: %+v", ix.Sessions[0])
	}
}

func TestParseTolerance(t *testing.T) {
	tests := []struct {
		name, in  string
		wantErr   bool
		wantLimit int
		wantN     int
	}{
		{name: "empty file", in: "", wantLimit: 20},
		{name: "whitespace", in: " \n", wantLimit: 20},
		{name: "empty object", in: "{}", wantLimit: 20},
		{name: "null sessions", in: `{"sessions": null, "history_limit": 3}`, wantLimit: 3},
		{name: "started unparseable falls back to id", in: `{"sessions":[{"id":"20260101-0101-x","started":"yesterday"}]}`, wantLimit: 20, wantN: 1},
		{name: "truncated", in: `{"sessions": [`, wantErr: true},
		{name: "array at top", in: `[]`, wantErr: true},
		{name: "null at top", in: `null`, wantErr: true},
		{name: "sessions object", in: `{"sessions": {}}`, wantErr: true},
		{name: "record not object", in: `{"sessions": [1]}`, wantErr: true},
		{name: "id not string", in: `{"sessions": [{"id": 5}]}`, wantErr: true},
		{name: "limit not number", in: `{"history_limit": "20"}`, wantErr: true},
		{name: "latest not string", in: `{"latest_session": 3}`, wantErr: true},
		{name: "trailing garbage", in: `{} {}`, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ix, err := parseIndex([]byte(tt.in))
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if ix.HistoryLimit != tt.wantLimit || len(ix.Sessions) != tt.wantN {
				t.Fatalf("limit %d sessions %d", ix.HistoryLimit, len(ix.Sessions))
			}
			for _, r := range ix.Sessions {
				if r.Started.IsZero() {
					t.Fatalf("started not recovered from id %s", r.ID)
				}
			}
		})
	}
}

func TestLoadReportsCorruptFileWithoutTouchingIt(t *testing.T) {
	s, _, _ := newStore(t)
	writeIndex(t, s.Root, "{not json")
	_, err := s.Load()
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Path != Path(s.Root) {
		t.Fatalf("Load err = %v, want CorruptError", err)
	}
	if got := readIndexFile(t, s.Root); got != "{not json" {
		t.Fatalf("Load modified the file: %q", got)
	}
	if !strings.Contains(err.Error(), "moves it aside") {
		t.Fatalf("message does not say what happens next: %v", err)
	}
}

func TestNewRecordWritesAllKnownKeys(t *testing.T) {
	s, _, _ := newStore(t)
	mustStart(t, s, StartOptions{Runtime: "codex", NativeID: "019f", Focus: "x"})
	want := `{
  "sessions": [
    {
      "id": "20260804-1641-codex",
      "runtime": "codex",
      "native_session_id": "019f",
      "started": "2026-08-04T16:41:42Z",
      "ended": null,
      "status": "active",
      "focus": "x"
    }
  ],
  "latest_session": "20260804-1641-codex",
  "history_limit": 20
}
`
	if got := readIndexFile(t, s.Root); got != want {
		t.Fatalf("got:\n%s", got)
	}
}

func TestJSONStringRoundTrips(t *testing.T) {
	for _, s := range []string{"", "plain text 123", `say "hi"`, `back\slash`, "<a> & b", "tab\tnew\nline", "é ✓ 😀", "\x00\x1f\x7f", "\u2028"} {
		enc := jsonString(s)
		var back string
		if err := json.Unmarshal(enc, &back); err != nil || back != s {
			t.Errorf("jsonString(%q) = %s, decodes to %q (%v)", s, enc, back, err)
		}
		if strings.Contains(s, "<") && !strings.Contains(string(enc), "<") {
			t.Errorf("jsonString(%q) HTML-escaped: %s", s, enc)
		}
	}
}
