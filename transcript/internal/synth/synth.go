// Package synth generates seeded synthetic Claude Code session files for
// benchmarks: the transcript reader's, and the end-to-end import's (through
// the synthgen command, because launcher cannot import an internal package
// of transcript).
//
// The corpus mimics Claude Code JSONL (docs: tech-and-perf §2): 6% string
// prompts, 30% assistant text with usage, 30% Bash/Edit tool_use, 33% tool
// results duplicated in toolUseResult, 1% summaries; line lengths from
// ~200 B to ~46 KB with escapes, tabs, HTML-ish text and non-ASCII. The same
// seed and options always give the same bytes.
package synth

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"os"
)

// Claude describes one synthetic Claude Code session.
type Claude struct {
	Seed      int64  // 0 = DefaultSeed
	SessionID string // "" = "bench"
	Cwd       string // recorded working directory; "" = "/home/user/project"
}

// DefaultSeed is the seed of the corpus the README's figures are measured on.
const DefaultSeed = 20261130

func (c Claude) withDefaults() Claude {
	if c.Seed == 0 {
		c.Seed = DefaultSeed
	}
	if c.SessionID == "" {
		c.SessionID = "bench"
	}
	if c.Cwd == "" {
		c.Cwd = "/home/user/project"
	}
	return c
}

// Write streams records to w until at least size bytes were written (the
// last record is complete) and returns the bytes written. Memory use does
// not depend on size.
func (c Claude) Write(w io.Writer, size int64) (int64, error) {
	c = c.withDefaults()
	cw := &countingWriter{w: w}
	enc := json.NewEncoder(cw)
	enc.SetEscapeHTML(false)
	g := gen{rng: rand.New(rand.NewSource(c.Seed)), c: c}
	for i := 0; cw.n < size; i++ {
		if err := enc.Encode(g.record(i)); err != nil {
			return cw.n, fmt.Errorf("write synthetic record %d: %w", i, err)
		}
	}
	return cw.n, nil
}

// WriteFile writes a session of about size bytes to path (0600).
func (c Claude) WriteFile(path string, size int64) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("create synthetic session: %w", err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if _, err := c.Write(bw, size); err != nil {
		f.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write synthetic session: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close synthetic session: %w", err)
	}
	return nil
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (cw *countingWriter) Write(p []byte) (int, error) {
	n, err := cw.w.Write(p)
	cw.n += int64(n)
	return n, err
}
