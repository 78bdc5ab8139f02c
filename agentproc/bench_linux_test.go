//go:build linux

package agentproc

import (
	"os/exec"
	"testing"
)

// BenchmarkStartWait measures Start+Wait of true(1), the launcher's fixed cost per run;
// compare with the direct case. scripts/bench-pty.sh measures the same from a separate process.
func BenchmarkStartWait(b *testing.B) {
	truePath, err := exec.LookPath("true")
	if err != nil {
		b.Skip("true(1) not found")
	}
	for _, tc := range []struct {
		name string
		pty  bool
	}{{"inherited", false}, {"pty", true}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				p, err := Start(Spec{Path: truePath, PTY: tc.pty})
				if err != nil {
					b.Fatal(err)
				}
				if st, err := p.Wait(); err != nil || st.Code != 0 {
					b.Fatalf("status %+v, %v", st, err)
				}
			}
		})
	}
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			if err := exec.Command(truePath).Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
