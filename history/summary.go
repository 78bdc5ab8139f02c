package history

import (
	"context"
	"sort"

	"github.com/ai-memory/ai-memory/ledger"
)

// MaxSummaryEvents bounds the events one session summary reads, so the
// session page costs the same for any session length (about 8 µs of server
// CPU per event read, mostly SQLite): a longer session is summarised from
// its first and last MaxSummaryEvents/2 events (Summary.Partial), which
// hold its opening prompts and its final answer. The timeline shows the
// events in between.
const MaxSummaryEvents = 10_000

// Summary is the compiled page of one session: what a person opens to
// remember what happened. It is derived from the session's events only.
type Summary struct {
	Session
	Title        string   `json:"title"`
	Prompts      []string `json:"prompts"`
	FilesRead    []string `json:"files_read"`
	FilesEdited  []string `json:"files_edited"`
	FilesWritten []string `json:"files_written"`
	Commands     []string `json:"commands"`
	Errors       []string `json:"errors"`
	FinalAnswer  string   `json:"final_answer"`
	Previous     string   `json:"previous_run_id"` // "" for the first session
	Next         string   `json:"next_run_id"`     // "" for the last session
	// Partial is true when the session is longer than MaxSummaryEvents:
	// the events after sequence SkippedAfter up to SkippedThrough were not
	// read.
	Partial        bool  `json:"partial"`
	SkippedAfter   int64 `json:"skipped_after,omitempty"`
	SkippedThrough int64 `json:"skipped_through,omitempty"`
}

// errorPreview bounds each listed error.
const errorPreview = 400

// Summarize compiles the summary of one session of t.
func Summarize(ctx context.Context, db ledger.Ledger, t Timeline, runID string) (Summary, error) {
	s, ok := t.Find(runID)
	if !ok {
		return Summary{}, errNoSession(runID)
	}
	sum := Summary{Session: s, Title: OneLine(s.FirstPrompt, 120)}
	if sum.Title == "" {
		sum.Title = s.Harness + " session " + s.NativeSessionID
	}
	if i := s.Index - 1; i > 0 {
		sum.Previous = t.Sessions[i-1].RunID
	}
	if s.Index < len(t.Sessions) {
		sum.Next = t.Sessions[s.Index].RunID
	}
	if s.Events == 0 {
		return sum, nil
	}
	evs, err := sum.read(ctx, db, t.Workstream.ID)
	if err != nil {
		return sum, err
	}
	sum.compile(evs, t.Workstream.Cwd)
	return sum, nil
}

// read returns the session's events, or the first and last
// MaxSummaryEvents/2 of a longer one (marking the gap).
func (sum *Summary) read(ctx context.Context, db ledger.Ledger, wsID string) ([]ledger.Event, error) {
	first, last := sum.FirstSequence, sum.LastSequence
	if last-first+1 <= MaxSummaryEvents {
		return db.EventsAfter(ctx, wsID, first-1, last, 0)
	}
	half := int64(MaxSummaryEvents / 2)
	head, err := db.EventsAfter(ctx, wsID, first-1, first-1+half, 0)
	if err != nil {
		return nil, err
	}
	tail, err := db.EventsAfter(ctx, wsID, last-half, last, 0)
	if err != nil {
		return nil, err
	}
	sum.Partial, sum.SkippedAfter, sum.SkippedThrough = true, first-1+half, last-half
	return append(head, tail...), nil
}

func (sum *Summary) compile(evs []ledger.Event, root string) {
	files := [3]map[string]bool{{}, {}, {}}
	for _, e := range evs {
		switch e.Kind {
		case ledger.KindMessage:
			if e.Role == "user" {
				sum.Prompts = append(sum.Prompts, e.Content)
			} else if e.Role == "assistant" {
				sum.FinalAnswer = e.Content
			}
		case ledger.KindToolCall:
			u := parseToolCall(e.Content)
			for i, list := range [][]string{u.read, u.edited, u.written} {
				for _, p := range list {
					files[i][relPath(root, p)] = true
				}
			}
			if u.command != "" && (len(sum.Commands) == 0 || sum.Commands[len(sum.Commands)-1] != u.command) {
				sum.Commands = append(sum.Commands, u.command)
			}
		case ledger.KindToolResult:
			if isErr, _ := e.Metadata["is_error"].(bool); isErr {
				sum.Errors = append(sum.Errors, OneLine(e.Content, errorPreview))
			}
		}
	}
	sum.FilesRead, sum.FilesEdited, sum.FilesWritten = keys(files[0]), keys(files[1]), keys(files[2])
	if sum.ExitCode != nil && *sum.ExitCode != 0 {
		sum.Errors = append(sum.Errors, "the agent exited with code "+itoa(*sum.ExitCode))
	}
}

func keys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
