package transcript

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// crushPartsRE picks the parts column (a quoted JSON array) of the fixture
// rows.
var crushPartsRE = regexp.MustCompile(`'(\[\{.*\}\])'`)

// FuzzCrushMessage feeds arbitrary parts columns and roles to the message
// parser and the finality rule: they must never panic, and whatever is
// imported must be well formed.
func FuzzCrushMessage(f *testing.F) {
	paths, _ := filepath.Glob("testdata/crush/*/*.sql")
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for _, m := range crushPartsRE.FindAllStringSubmatch(string(b), -1) {
			f.Add([]byte(strings.ReplaceAll(m[1], "''", "'")), "assistant", false)
		}
	}
	f.Add([]byte(`[{"type":"tool_call","data":{"input":"\ud800","finished":true}}]`), "assistant", true)
	f.Add([]byte(`[{"type":"shell_command","data":{"exit_code":1e999}}]`), "user", false)
	f.Fuzz(func(t *testing.T, parts []byte, role string, summary bool) {
		var out sink
		r := crushRow{id: "m", role: role, parts: parts, summary: summary}
		parseCrushMessage(r, &out)
		for _, e := range out.events {
			if e.RecordID != "m" || e.BlockIndex < 0 || e.Kind == "" || e.Role == "" {
				t.Fatalf("malformed event %+v", e)
			}
			if !utf8.ValidString(e.Content) {
				t.Fatalf("invalid UTF-8 in %q", e.Content)
			}
		}
		_ = crushFinal(r, 0)
	})
}
