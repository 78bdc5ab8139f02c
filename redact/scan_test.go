package redact

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// builtAtInit records whether the family tables existed before the first
// test ran: importing the package must compile nothing.
var builtAtInit bool

func TestMain(m *testing.M) {
	builtAtInit = ruleSetVal != nil
	os.Exit(m.Run())
}

func TestNothingBuiltAtInit(t *testing.T) {
	if builtAtInit {
		t.Fatal("the family tables were built during package initialisation; build them on first use")
	}
}

// TestRulesCompile compiles every family up front (they are compiled
// lazily in production) and checks the keyword invariants the scan needs.
func TestRulesCompile(t *testing.T) {
	all := append(blockRules(), lineRules()...)
	if n := len(lineRules()); n > 64 {
		t.Fatalf("%d line families do not fit the 64-bit candidate mask", n)
	}
	for _, r := range all {
		if len(r.prog().secretGroups) == 0 {
			t.Errorf("%s: no secret group", r.name)
		}
		if len(r.keys) == 0 {
			t.Errorf("%s: no keywords", r.name)
		}
		for _, k := range r.keys {
			if k == "" || k != asciiLower(k) || strings.Contains(k, "\n") {
				t.Errorf("%s: keyword %q must be non-empty, lower-case and on one line", r.name, k)
			}
		}
	}
}

// TestScan pins the scan's rules on small inputs: case folding, the
// longest keyword of a family deciding at a position, filters, line bounds
// and block keywords.
func TestScan(t *testing.T) {
	tests := []struct {
		in     string
		want   []string // "start-end:family,family"
		blocks bool
	}{
		{"plain words", nil, false},
		{"TOKEN=abc", []string{"0-9:env-assignment,credential-assignment"}, false},
		{"token: a1b2c3d4", []string{"0-15:keyed-credential,env-assignment,credential-assignment"}, false},
		{"x\nBeArEr abc\ny", []string{"2-12:bearer"}, false},
		{"bearer", nil, false},
		{"GOOGLE_CREDENTIALS=x", []string{"0-20:env-assignment,credential-assignment"}, false},
		{"my_credentialsx=1", nil, false}, // "credentials" decides, not "credential"
		{"credential=1", []string{"0-12:env-assignment,credential-assignment"}, false},
		{"a token is\nSECRET = 1\n", []string{"11-21:env-assignment,credential-assignment"}, false},
		{"postgres://u:p@h and ://x", []string{"0-25:url-credentials"}, false},
		{"https://h/p://u:p@h", []string{"0-19:url-credentials"}, false},
		{"sk-x ghp_y AKIA", []string{"0-15:openai-anthropic,github,aws-access-key-id"}, false},
		{"-----BEGIN PRIVATE KEY-----\nKEY=1", []string{"28-33:env-assignment"}, true},
		{"ünï KEY=1", []string{"0-11:env-assignment"}, false},
	}
	for _, tc := range tests {
		cands, blocks := rules().scan.scan(tc.in)
		if got := describe(cands); !slices.Equal(got, tc.want) || (blocks != 0) != tc.blocks {
			t.Errorf("scan(%q) = %q, blocks %b; want %q, blocks %v", tc.in, got, blocks, tc.want, tc.blocks)
		}
	}
}

// describe renders candidates with family names for readable failures.
func describe(cands []candidate) []string {
	var out []string
	for _, c := range cands {
		var names []string
		for i, r := range rules().line {
			if c.rules&(1<<i) != 0 {
				names = append(names, r.name)
			}
		}
		out = append(out, fmt.Sprintf("%d-%d:%s", c.start, c.end, strings.Join(names, ",")))
	}
	return out
}

// TestScanMatchesReference compares the keyword automaton with the
// previous one-search-per-keyword scan (reference_test.go), and the whole
// pipeline with the previous one, over random fragments and every corpus
// at hand.
func TestScanMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, in := range fragmentInputs(r, scanFragments(r), 20000) {
		compareWithReference(t, in)
	}
	for _, in := range fragmentInputs(r, fragments, 5000) {
		compareWithReference(t, in)
	}
	for _, cases := range familyCases {
		for _, tc := range cases {
			compareWithReference(t, tc.in)
			compareWithReference(t, strings.ToUpper(tc.in))
		}
	}
	compareWithReference(t, mixedText(256<<10))
	for _, path := range corpusFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("read corpus: %v", err)
		}
		compareWithReference(t, string(data))
		compareWithReference(t, strings.ToUpper(string(data)))
		for line := range strings.Lines(string(data)) {
			compareWithReference(t, line)
		}
	}
}

// scanFragments are every keyword of every family in random letter case,
// the bytes the filters look at, and pieces of real secrets, so that
// keywords overlap, nest and sit at line ends.
func scanFragments(r *rand.Rand) []string {
	frags := []string{"=", ":", ":=", " ", "\t", "\n", "\r\n", "\"", "'", "\\", "@", "/", "?", "#",
		"(", "$", "_", "-", "s", "X", "\xff", "K", fill(12), Marker, "proxy-", "client_", "export "}
	for _, rl := range append(blockRules(), lineRules()...) {
		for _, k := range rl.keys {
			frags = append(frags, k, strings.ToUpper(k), randomCase(r, k))
		}
	}
	return frags
}

func randomCase(r *rand.Rand, s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' && r.IntN(2) == 0 {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// corpusFiles are this package's sources (dense in keywords) and the real
// harness transcripts of the transcript package, when present.
func corpusFiles(t *testing.T) []string {
	var files []string
	for _, pattern := range []string{"*.go", "../transcript/testdata/*/*.jsonl", "../transcript/testdata/real/*/*.jsonl"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatalf("glob %s: %v", pattern, err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no corpus files found")
	}
	return files
}

// compareWithReference fails when the scan or the pipeline differs from
// the reference on in.
func compareWithReference(t *testing.T, in string) {
	t.Helper()
	tab := rules()
	cands, blocks := tab.scan.scan(in)
	if want := refCandidates(tab.line, in); !slices.Equal(cands, want) {
		t.Fatalf("scan(%q)\n got %q\nwant %q", in, describe(cands), describe(want))
	}
	for i, rl := range tab.block {
		if got, want := blocks&(1<<i) != 0, refIndexAny(asciiLower(in), rl.keys, 0) >= 0; got != want {
			t.Fatalf("scan(%q): block family %s found %v, want %v", in, rl.name, got, want)
		}
	}
	got, n := Count(in)
	if want, m := refCount(in); got != want || n != m {
		t.Fatalf("Count(%q)\n got %q, %d\nwant %q, %d", in, got, n, want, m)
	}
}

// FuzzScanMatchesReference is the differential test for any input.
func FuzzScanMatchesReference(f *testing.F) {
	for _, cases := range familyCases {
		for _, tc := range cases {
			f.Add(tc.in)
		}
	}
	f.Add("my_credentialsx=1 credential=1\nBeArEr abc https://h/p://u:p@h")
	f.Fuzz(func(t *testing.T, in string) { compareWithReference(t, in) })
}

// TestScannerRejectsBadKeywords covers the invariants the automaton relies
// on: keywords are matched against case-folded text and never span lines.
func TestScannerRejectsBadKeywords(t *testing.T) {
	for _, key := range []string{"", "Key", "a\nb"} {
		t.Run(fmt.Sprintf("%q", key), func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatalf("newScanner accepted keyword %q", key)
				}
			}()
			newScanner(nil, []rule{{name: "bad", keys: []string{key}}})
		})
	}
}
