package redact

import (
	"strings"
	"testing"

	"github.com/ai-memory/ai-memory/internal/secretcorpus"
)

// corpusPositions renders a shape as the ledger receives each of the four
// transcript positions: prompt and reply text as they are, a tool call's
// input as compact JSON (a Claude Write of a .env file, a Codex shell
// heredoc, JSON inside JSON), a tool result as its output text.
var corpusPositions = []struct {
	name   string
	render func(text string) string
}{
	{"user", secretcorpus.UserText},
	{"assistant", secretcorpus.AssistantText},
	{"tool_use/claude-write", func(t string) string {
		return "Write: " + string(secretcorpus.JSON(map[string]string{"file_path": "/repo/.env", "content": secretcorpus.EnvFile(t)}))
	}},
	{"tool_use/codex-exec", func(t string) string {
		cmd := "cat > .env <<'EOF'\n" + secretcorpus.EnvFile(t) + "EOF"
		return "exec_command: " + string(secretcorpus.JSON(map[string]string{"cmd": cmd}))
	}},
	{"tool_use/json-in-json", func(t string) string {
		inner := string(secretcorpus.JSON(map[string]string{"env": secretcorpus.EnvFile(t)}))
		return "Bash: " + string(secretcorpus.JSON(map[string]string{"command": "echo '" + inner + "' > cfg.json"}))
	}},
	{"tool_result", secretcorpus.ToolResult},
}

// TestCorpus is the recall figure of docs/redaction.md: every secret shape
// of the corpus, in every position, must leave no fragment of its secret.
func TestCorpus(t *testing.T) {
	shapes := secretcorpus.Shapes()
	if len(shapes) < 80 {
		t.Fatalf("corpus has %d shapes, want >= 80", len(shapes))
	}
	finder := secretcorpus.NewFinder(shapes)
	leaks := 0
	for i, s := range shapes {
		for _, sec := range s.Secrets {
			if len(sec) < secretcorpus.FragmentLen {
				t.Errorf("%s: secret shorter than %d bytes", s.Name, secretcorpus.FragmentLen)
			}
		}
		for _, p := range corpusPositions {
			in := p.render(s.Text)
			out := String(in)
			if hits := finder.Find([]byte(out)); len(hits) > 0 {
				leaks++
				t.Errorf("%s (%s) leaks in %s position:\n%s", s.Name, s.Family, p.name, out)
			} else if found := finder.Find([]byte(in)); len(found) != 1 || found[0] != i {
				t.Errorf("%s: corpus finder does not see the planted secret (%v)", s.Name, found)
			}
			if again := String(out); again != out {
				t.Errorf("%s in %s: not idempotent:\n%q\n%q", s.Name, p.name, out, again)
			}
		}
	}
	t.Logf("corpus: %d shapes x %d positions, %d leaks", len(shapes), len(corpusPositions), leaks)
}

// TestBenign is the false-positive figure of docs/redaction.md: coding text
// that only looks like secrets survives unchanged in every position.
func TestBenign(t *testing.T) {
	fp := 0
	for _, b := range secretcorpus.Benign() {
		for _, p := range corpusPositions {
			in := p.render(b)
			if out := String(in); out != in {
				fp++
				t.Errorf("benign text changed in %s position:\n in %q\nout %q", p.name, in, out)
			}
		}
	}
	t.Logf("benign: %d texts x %d positions, %d false positives", len(secretcorpus.Benign()), len(corpusPositions), fp)
}

// TestEscapedContext pins the context bug of issue 10: a .env line inside a
// JSON-escaped tool input has a literal backslash-n before its name.
func TestEscapedContext(t *testing.T) {
	in := `Write: {"content":"# x\nAPI_KEY=Zx81kLmQ2pWn7Rt5Yv3Bc9Df\nDB_PASSWORD=hunter2Secret9\n\tTOKEN=\"abc123def456\"\n"}`
	want := `Write: {"content":"# x\nAPI_KEY=[REDACTED]\nDB_PASSWORD=[REDACTED]\n\tTOKEN=\"[REDACTED]\"\n"}`
	if got := String(in); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if !strings.Contains(String(`a\\nAPI_KEY=Zx81kLmQ2pWn7Rt5`), Marker) {
		t.Fatal("double-escaped line break not treated as a boundary")
	}
}
