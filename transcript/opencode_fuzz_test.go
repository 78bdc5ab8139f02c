package transcript

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// opencodeDataRE picks the JSON data column (last value) of a part or
// message row in the captured dumps.
var opencodeDataRE = regexp.MustCompile(`(?m)^INSERT INTO (part|message) VALUES\(.*,'(\{.*\})'\);$`)

// FuzzOpenCodePart feeds arbitrary part and message data to the part
// parser: it must never panic, and whatever it imports must be well formed.
func FuzzOpenCodePart(f *testing.F) {
	paths, _ := filepath.Glob("testdata/opencode/*/*.sql")
	var msgs []string
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, m := range opencodeDataRE.FindAllStringSubmatch(string(b), -1) {
			data := strings.ReplaceAll(m[2], "''", "'")
			if m[1] == "message" {
				msgs = append(msgs, data)
			} else {
				f.Add([]byte(data), []byte(`{"role":"assistant"}`))
			}
		}
	}
	for _, m := range msgs {
		f.Add([]byte(`{"type":"text","text":"x"}`), []byte(m))
	}
	f.Add([]byte(`{"type":"tool","state":{"status":"error","error":"\ud800"}}`), []byte(`{"role":"user"}`))
	f.Fuzz(func(t *testing.T, data, msg []byte) {
		var out sink
		parseOpenCodePart(opencodeRow{id: "prt_f", data: data, msg: msg}, &out)
		for _, e := range out.events {
			if e.RecordID != "prt_f" || e.BlockIndex < 0 || e.BlockIndex > 1 || e.Kind == "" || e.Role == "" {
				t.Fatalf("malformed event %+v", e)
			}
			if !utf8.ValidString(e.Content) {
				t.Fatalf("invalid UTF-8 in %q", e.Content)
			}
		}
		_ = opencodeSettled(opencodeRow{data: data}, 0)
	})
}
