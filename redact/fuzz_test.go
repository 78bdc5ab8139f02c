package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ai-memory/ai-memory/internal/secretcorpus"
)

// FuzzString checks the properties the ledger relies on for any input: no
// panic, idempotence (re-importing redacted text changes nothing), bounded
// growth (every match is at least 7 bytes and grows by at most 9), valid
// UTF-8 kept valid, and an unchanged text when nothing was counted.
func FuzzString(f *testing.F) {
	for _, cases := range familyCases {
		for _, tc := range cases {
			f.Add(tc.in)
		}
	}
	for _, sh := range secretcorpus.Shapes() {
		for _, p := range corpusPositions {
			f.Add(p.render(sh.Text))
		}
	}
	f.Add(strings.Repeat("TOKEN=a ", 10))
	f.Add("redis://:a@h a://:b@c")
	f.Add(`Write: {"content":"a\nAPI_KEY=Zx81kLmQ2pWn\n\tpassword: \"x9y8z7\"\\n"}`)
	f.Fuzz(func(t *testing.T, in string) {
		out, n := Count(in)
		if len(out) > 3*len(in) {
			t.Fatalf("grew from %d to %d bytes: %q -> %q", len(in), len(out), in, out)
		}
		if n == 0 && out != in {
			t.Fatalf("changed without counting: %q -> %q", in, out)
		}
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Fatalf("broke UTF-8: %q -> %q", in, out)
		}
		if again := String(out); again != out {
			t.Fatalf("not idempotent:\n in %q\nout %q\nagain %q", in, out, again)
		}
	})
}

// TestFragmentsIdempotent is a deterministic companion of FuzzString for
// plain `go test`: random concatenations of the fragments the families care
// about, checked for idempotence and bounded growth.
func TestFragmentsIdempotent(t *testing.T) {
	for _, in := range fragmentInputs(rand.New(rand.NewPCG(1, 2)), fragments, 5000) {
		out := String(in)
		if len(out) > 3*len(in) {
			t.Fatalf("grew from %d to %d bytes: %q -> %q", len(in), len(out), in, out)
		}
		if again := String(out); again != out {
			t.Fatalf("not idempotent:\n in %q\nout %q\nagain %q", in, out, again)
		}
	}
}

// fragments are the pieces the families care about.
var fragments = []string{
	"-----BEGIN RSA PRIVATE KEY-----", "-----END RSA PRIVATE KEY-----", "\n", " ", "\t",
	"sk-", "Bearer ", "TOKEN=", "_KEY", "a", "Z", "1", "://", ":", "@", "\"", "'", "\\",
	"=", "eyJ", ".", "Authorization:", "x-api-key", "private key", "bot", "AA", "1//",
	"(", "$", Marker, "\xff", "é", fill(20), "ghp_", "AKIA", "-",
	`\n`, `\\n`, `\t`, `\"`, "password", "api_key", "--password ", "mysql -p", "curl -u a:", "npm_", "MTA",
}

// fragmentInputs returns n random concatenations of up to 29 frags.
func fragmentInputs(r *rand.Rand, frags []string, n int) []string {
	ins := make([]string, n)
	for i := range ins {
		var b strings.Builder
		for range r.IntN(30) {
			b.WriteString(frags[r.IntN(len(frags))])
		}
		ins[i] = b.String()
	}
	return ins
}

// FuzzScanView checks the invariant the escape view rests on: it has the
// length of the text and differs from it only where an escape of a line
// break or tab is (its backslashes become blanks, its letter the character).
func FuzzScanView(f *testing.F) {
	f.Add(`a\nB=1\\tC\"d\re\`)
	f.Add("plain")
	f.Fuzz(func(t *testing.T, s string) {
		v, escaped := scanView(s)
		if len(v) != len(s) || escaped != (v != s) {
			t.Fatalf("view of %q is %q (escaped %v)", s, v, escaped)
		}
		for i := 0; i < len(s); i++ {
			if v[i] == s[i] {
				continue
			}
			if !(s[i] == '\\' && v[i] == ' ') && !(i > 0 && s[i-1] == '\\' && v[i] == escapedSpace(s[i])) {
				t.Fatalf("view of %q changes byte %d: %q -> %q", s, i, s[i], v[i])
			}
		}
	})
}
