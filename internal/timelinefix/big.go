package timelinefix

import (
	"context"
	"fmt"
	"math/rand"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
)

// BuildBig records a workstream of about events events over runs
// alternating claude and codex launches, generated batch by batch (constant
// memory): a prompt, then tool calls, results and answers of seeded
// pseudo-words (a skewed vocabulary, so some words are common).
func BuildBig(ctx context.Context, db ledger.Ledger, name string, events, runs int) (ledger.Workstream, error) {
	ws, err := db.SelectWorkstream(ctx, Scope, ledger.Selector{Name: name, Create: true})
	if err != nil {
		return ws, err
	}
	rng := rand.New(rand.NewSource(1))
	per := events / runs
	seq := 0
	for r := 0; r < runs; r++ {
		h := []string{"claude", "codex"}[r%2]
		session := fmt.Sprintf("%s-big-%d", h, r)
		run, _, err := db.AcquireLease(ctx, ws.ID, h, ledger.CurrentOwner())
		if err != nil {
			return ws, err
		}
		if err := db.SetRunSession(ctx, run.ID, session); err != nil {
			return ws, err
		}
		for done := 0; done < per; {
			n := min(400, per-done)
			batch := make([]ledger.EventInput, n)
			for i := range batch {
				batch[i] = bigEvent(rng, h, session, seq, done+i)
				seq++
			}
			if _, err := db.Append(ctx, ledger.Batch{WorkstreamID: ws.ID, RunID: run.ID, Events: batch}); err != nil {
				return ws, err
			}
			done += n
		}
		code := 0
		if err := db.FinishRun(ctx, run.ID, &code); err != nil {
			return ws, err
		}
	}
	return ws, nil
}

func bigEvent(rng *rand.Rand, h, session string, seq, i int) ledger.EventInput {
	text := words(rng, 20+rng.Intn(80))
	switch {
	case i == 0:
		return Ev(h, session, seq, ledger.KindMessage, "user", "big prompt "+text, nil)
	case i%4 == 1:
		return Ev(h, session, seq, ledger.KindToolCall, "assistant", `Bash: {"command":"go test ./`+words(rng, 1)+`"}`, map[string]any{"tool": "Bash"})
	case i%4 == 2:
		return Ev(h, session, seq, ledger.KindToolResult, "tool", text, nil)
	}
	return Ev(h, session, seq, ledger.KindMessage, "assistant", text, nil)
}

// words returns n pseudo-words; low ranks are far more frequent.
func words(rng *rand.Rand, n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		r := int(float64(5000) * rng.Float64() * rng.Float64() * rng.Float64())
		fmt.Fprintf(&b, "w%x", r)
	}
	return b.String()
}
