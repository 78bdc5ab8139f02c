//go:build unix

package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// report prints per-variant figures and the paired differences (round by
// round, managed minus direct), which cancel most of the shared load.
func report(w io.Writer, c config, first sample, res [][]sample) {
	direct, managed := res[0], res[1]
	mode := "stdin on a PTY"
	if !c.pty {
		mode = "stdin /dev/null"
	}
	repoState, ledger, target := "a repository without commits", "SQLite", 10*time.Millisecond
	if c.commit {
		repoState = "a repository with a commit"
	}
	if c.ledger != "" {
		// The shared ledger's target (one server round trip costs what a
		// local file read does not).
		ledger, target = "PostgreSQL", 20*time.Millisecond
	}
	fmt.Fprintf(w, "launcher overhead: %d interleaved runs each after %d warm-up rounds, %s, %s, %s ledger\n", c.runs, c.warmup, mode, repoState, ledger)
	line := func(label string, d []time.Duration) {
		fmt.Fprintf(w, "  %-44s median %8s  p90 %8s\n", label, ms(pct(d, 50)), ms(pct(d, 90)))
	}
	line("start: claude -p x (direct)", field(direct, startOf))
	line("start: ai-memory run claude -p x", field(managed, startOf))
	line("start: added by ai-memory (paired)", diff(managed, direct, startOf))
	line("agent lifetime: direct", field(direct, lifeOf))
	line("agent lifetime: under ai-memory (runs hook)", field(managed, lifeOf))
	line("after agent exit: ai-memory until it exits", field(managed, afterOf))
	line("wall:  claude -p x (direct)", field(direct, wallOf))
	line("wall:  ai-memory run claude -p x", field(managed, wallOf))
	line("wall:  added by ai-memory (paired)", diff(managed, direct, wallOf))
	fmt.Fprintf(w, "  first run (creates the ledger): start %s, wall %s\n", ms(first.start), ms(first.wall))
	fmt.Fprintf(w, "  target: start added <= %d ms (median): %s\n", target.Milliseconds(), verdict(pct(diff(managed, direct, startOf), 50) <= target))
}

func startOf(s sample) time.Duration { return s.start }
func wallOf(s sample) time.Duration  { return s.wall }
func lifeOf(s sample) time.Duration  { return s.exited - s.start }
func afterOf(s sample) time.Duration { return s.wall - s.exited }

func field(ss []sample, f func(sample) time.Duration) []time.Duration {
	out := make([]time.Duration, len(ss))
	for i, s := range ss {
		out[i] = f(s)
	}
	return out
}

// diff is the per-round difference a - b.
func diff(a, b []sample, f func(sample) time.Duration) []time.Duration {
	out := make([]time.Duration, len(a))
	for i := range a {
		out[i] = f(a[i]) - f(b[i])
	}
	return out
}

// pct returns the p-th percentile (nearest rank) of d.
func pct(d []time.Duration, p int) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	i := (len(s)*p + 99) / 100
	return s[max(i-1, 0)]
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}
