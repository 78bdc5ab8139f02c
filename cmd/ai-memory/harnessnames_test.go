package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/ai-memory/ai-memory/harness"
)

// TestNoHarnessNamesOutsideTheirFiles enforces "a harness is one place":
// no production file names a specific harness except that harness's own
// files, harness/<name>*.go and transcript/<name>*.go, and the registry
// list, harness/all.go (one line per harness).
//
// What counts:
//   - production = the non-test .go files (every GOOS) of the packages
//     linked into the ai-memory binary, found by following imports from
//     cmd/ai-memory. Tests, fakes (harness/harnesstest), fixtures, benchmark
//     drivers and scripts are not linked in and may name anything.
//   - a harness is named by an identifier or a string literal holding one
//     of its registered names or aliases as a word (case-insensitive;
//     camelCase, '_', '-', '/', '.' and spaces separate words), so
//     claudeSource, "CODEX_HOME" and "hook claude" count and "codexes"
//     would not. Comments do not count: they may say why.
func TestNoHarnessNamesOutsideTheirFiles(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range harness.All() {
		names = append(names, d.Name)
		names = append(names, d.Aliases...)
	}
	words := harnessWordPattern(names)
	for _, dir := range linkedPackageDirs(t, root, "cmd/ai-memory") {
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || ownFile(dir, filepath.Base(f), names) {
				continue
			}
			rel, _ := filepath.Rel(root, f)
			for _, hit := range harnessMentions(t, f, words) {
				if sharedStorePaths[filepath.ToSlash(rel)] == hit {
					continue
				}
				t.Errorf("%s: %s names a harness; move it into that harness's descriptor or source file", rel, hit)
			}
		}
	}
}

// sharedStorePaths are the mentions a harness's own file must make of
// another harness's name because the CLI itself keeps its store there:
// Antigravity (agy) writes under Gemini CLI's home, ~/.gemini/antigravity-cli.
// The value is the exact mention harnessMentions reports.
var sharedStorePaths = map[string]string{
	"transcript/antigravity.go": `string ".gemini"`,
}

// ownFile reports whether file belongs to one harness: harness/<name>*.go or
// transcript/<name>*.go.
func ownFile(dir, file string, names []string) bool {
	if dir == "harness" && file == "all.go" {
		return true
	}
	if dir != "harness" && dir != "transcript" {
		return false
	}
	for _, n := range names {
		if strings.HasPrefix(file, n) {
			return true
		}
	}
	return false
}

func harnessWordPattern(names []string) *regexp.Regexp {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(strings.ToLower(n))
	}
	return regexp.MustCompile(`(^|[^a-z0-9])(` + strings.Join(quoted, "|") + `)($|[^a-z0-9])`)
}

// harnessMentions lists the identifiers and string literals of file that
// name a harness.
func harnessMentions(t *testing.T, file string, words *regexp.Regexp) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	var hits []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			if words.MatchString(splitWords(x.Name)) {
				hits = append(hits, "identifier "+x.Name)
			}
		case *ast.BasicLit:
			if x.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(x.Value); err == nil && words.MatchString(strings.ToLower(s)) {
				hits = append(hits, "string "+x.Value)
			}
		}
		return true
	})
	return hits
}

// splitWords lower-cases a Go identifier with a space at each camelCase
// boundary: "newClaudeSource" -> "new claude source".
func splitWords(id string) string {
	var b strings.Builder
	rs := []rune(id)
	for i, r := range rs {
		if i > 0 && unicode.IsUpper(r) && (unicode.IsLower(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1])) {
			b.WriteByte(' ')
		}
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

// linkedPackageDirs follows the imports of our module from start (module
// relative) and returns every package directory reached, start included.
func linkedPackageDirs(t *testing.T, root, start string) []string {
	t.Helper()
	const mod = "github.com/ai-memory/ai-memory/"
	seen := map[string]bool{}
	var order []string
	var visit func(dir string)
	visit = func(dir string) {
		if seen[dir] {
			return
		}
		seen[dir] = true
		order = append(order, dir)
		files, _ := filepath.Glob(filepath.Join(root, dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			pf, err := parser.ParseFile(token.NewFileSet(), f, src, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range pf.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				if dep, ours := strings.CutPrefix(p, mod); ours {
					visit(dep)
				}
			}
		}
	}
	visit(start)
	if len(order) < 5 {
		t.Fatalf("found only %v linked into %s; the import walk is broken", order, start)
	}
	return order
}

func TestHarnessMentionRules(t *testing.T) {
	words := harnessWordPattern([]string{"claude", "claude-code", "codex"})
	for in, want := range map[string]bool{
		splitWords("newClaudeSource"): true, splitWords("CODEX_HOME"): true, splitWords("codexes"): false,
		"hook claude session-start": true, "/usr/bin/claude": true, "codexes": false, "claudette": false,
		splitWords("harnessName"): false, "ai-memory run <harness>": false,
	} {
		if got := words.MatchString(strings.ToLower(in)); got != want {
			t.Errorf("%q names a harness: %v, want %v", in, got, want)
		}
	}
}
