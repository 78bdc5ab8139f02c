package launcher

import (
	"testing"
	"time"

	"github.com/ai-memory/ai-memory/harness"
	"github.com/ai-memory/ai-memory/repo"
	"github.com/ai-memory/ai-memory/transcript"
	"github.com/google/uuid"
)

// maxIdleFinish is the budget for learning, after the agent exited, that it
// wrote no transcript (a fresh session the user quit at once).
const maxIdleFinish = 100 * time.Millisecond

// TestSettleNoTranscriptIsImmediate: when the agent exited without writing a
// session, and its store is written only by the agent itself, finishing
// does not wait for a transcript that cannot appear any more. Before the
// source said so, this cost the full 2 s settle budget for every harness.
func TestSettleNoTranscriptIsImmediate(t *testing.T) {
	for _, h := range harness.All() {
		for _, known := range []bool{true, false} {
			t.Run(h.Name, func(t *testing.T) {
				home := t.TempDir()
				env := Env{Getenv: func(k string) string {
					if k == "HOME" {
						return home
					}
					return ""
				}}
				l := &launch{env: env, h: h, src: h.Source, id: repo.Identity{Root: t.TempDir()}, started: time.Now()}
				if known {
					l.plan.SessionID = uuid.NewString() // the id chosen before spawn
				}
				start := time.Now()
				_, ok := l.settleSession(transcript.Session{}, false)
				took := time.Since(start)
				if ok {
					t.Fatal("settleSession found a session in an empty store")
				}
				if took > maxIdleFinish {
					t.Errorf("settleSession took %v with no transcript, want < %v", took, maxIdleFinish)
				}
			})
		}
	}
}

// BenchmarkSettleNoTranscript measures what finishing costs, after the
// agent exited, to learn that it wrote no transcript (id known before
// spawn, as for a fresh Claude session; store scan since start otherwise).
func BenchmarkSettleNoTranscript(b *testing.B) {
	for _, h := range harness.All() {
		b.Run(h.Name, func(b *testing.B) {
			home := b.TempDir()
			env := Env{Getenv: func(k string) string {
				if k == "HOME" {
					return home
				}
				return ""
			}}
			l := &launch{env: env, h: h, src: h.Source, id: repo.Identity{Root: b.TempDir()}, started: time.Now()}
			for b.Loop() {
				if _, ok := l.settleSession(transcript.Session{}, false); ok {
					b.Fatal("found a session in an empty store")
				}
			}
		})
	}
}
