package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/launcher"
	"github.com/ai-memory/ai-memory/ledger"
	"github.com/urfave/cli/v2"
)

// searchOpts are the flags of workstream-search.
type searchOpts struct {
	WorkstreamID string
	Limit        int
	JSON         bool
	Query        string
}

func newWorkstreamSearchCommand() *cli.Command {
	return &cli.Command{
		Name:      "workstream-search",
		Usage:     "search a workstream's history (newest events when QUERY is empty)",
		ArgsUsage: "[QUERY...]",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "workstream-id", Usage: "workstream to search (default: $AI_MEMORY_WORKSTREAM_ID, else this worktree's selected one)"},
			&cli.IntFlag{Name: "limit", Value: ledger.DefaultSearchLimit, Usage: "maximum events, 1..100"},
			&cli.BoolFlag{Name: "json", Usage: "print a JSON array (see docs/ledger.md)"},
		},
		Action: func(c *cli.Context) error {
			o := searchOpts{WorkstreamID: c.String("workstream-id"), Limit: c.Int("limit"), JSON: c.Bool("json"),
				Query: strings.Join(c.Args().Slice(), " ")}
			if o.Limit < 1 || o.Limit > ledger.MaxSearchLimit {
				return usageError{fmt.Errorf("--limit must be between 1 and %d", ledger.MaxSearchLimit)}
			}
			env, err := newLedgerCLIEnv(c)
			if err != nil {
				return err
			}
			return runWorkstreamSearch(c.Context, env, o)
		},
	}
}

// eventJSON is the stable JSON shape of one event (docs/ledger.md).
type eventJSON struct {
	Sequence        int64          `json:"sequence"`
	EventID         string         `json:"event_id"`
	WorkstreamID    string         `json:"workstream_id"`
	Harness         string         `json:"harness"`
	NativeSessionID string         `json:"native_session_id"`
	Kind            string         `json:"kind"`
	Role            string         `json:"role"`
	Content         string         `json:"content"`
	OccurredAt      *string        `json:"occurred_at"`
	CreatedAt       string         `json:"created_at"`
	Metadata        map[string]any `json:"metadata,omitempty"`
}

func runWorkstreamSearch(ctx context.Context, env ledgerCLIEnv, o searchOpts) error {
	evs, nothing, err := searchEvents(ctx, env, o)
	if err != nil {
		return err
	}
	if o.JSON {
		return encodeJSONArray(env.out, toEventJSON(evs))
	}
	if nothing != "" {
		_, err := fmt.Fprintf(env.out, "No events yet: %s.\n", nothing)
		return err
	}
	return printSearchEvents(env.out, evs)
}

// searchEvents runs the search. With no ledger, or no workstream to search,
// it returns no events and says why: a script asking what is known gets
// an empty answer, not a failure.
func searchEvents(ctx context.Context, env ledgerCLIEnv, o searchOpts) ([]ledger.Event, string, error) {
	db, err := openLedgerIfExists(ctx, env)
	if err != nil {
		return nil, "", err
	}
	if db == nil {
		return nil, "no ai-memory ledger on this machine yet; " + runSuggestion() + " starts one", nil
	}
	defer db.Close()
	wsID, err := searchWorkstreamID(ctx, db, env, o.WorkstreamID)
	if err != nil || wsID == "" {
		return nil, "this worktree has no workstream yet; pass --workstream-id or start one with `ai-memory run <harness>`", err
	}
	evs, err := db.Search(ctx, wsID, o.Query, o.Limit)
	return evs, "", err
}

// searchWorkstreamID picks the flag, then $AI_MEMORY_WORKSTREAM_ID (set for
// a managed agent), then this worktree's selected workstream ("" if none).
func searchWorkstreamID(ctx context.Context, db ledger.Ledger, env ledgerCLIEnv, flag string) (string, error) {
	if id := strings.TrimSpace(flag); id != "" {
		return id, nil
	}
	if id := strings.TrimSpace(env.getenv("AI_MEMORY_WORKSTREAM_ID")); id != "" {
		return id, nil
	}
	scope, err := cwdScope(ctx, env, db)
	if err != nil {
		return "", err
	}
	ws, _, err := db.CurrentWorkstream(ctx, scope)
	return ws.ID, err
}

func toEventJSON(evs []ledger.Event) []eventJSON {
	out := make([]eventJSON, 0, len(evs))
	for _, e := range evs {
		j := eventJSON{Sequence: e.Sequence, EventID: e.EventID, WorkstreamID: e.WorkstreamID, Harness: e.Harness,
			NativeSessionID: e.NativeSessionID, Kind: string(e.Kind), Role: e.Role, Content: e.Content,
			CreatedAt: e.CreatedAt.UTC().Format(time.RFC3339Nano), Metadata: e.Metadata}
		if !e.OccurredAt.IsZero() {
			s := e.OccurredAt.UTC().Format(time.RFC3339Nano)
			j.OccurredAt = &s
		}
		out = append(out, j)
	}
	return out
}

// printSearchEvents renders "## Event <seq> | <harness> | <role or kind> | <time>",
// the content and a blank line per event.
func printSearchEvents(w io.Writer, evs []ledger.Event) error {
	if len(evs) == 0 {
		_, err := fmt.Fprintln(w, "No matching events.")
		return err
	}
	for _, e := range evs {
		label := e.Role
		if label == "" {
			label = string(e.Kind)
		}
		if st := launcher.ResultStatus(e.Metadata); e.Kind == ledger.KindToolResult && st != "" {
			label += " (" + st + ")"
		}
		when := e.OccurredAt
		if when.IsZero() {
			when = e.CreatedAt
		}
		if _, err := fmt.Fprintf(w, "## Event %d | %s | %s | %s\n%s\n\n", e.Sequence, e.Harness, label,
			when.UTC().Format(time.RFC3339), strings.TrimRight(e.Content, "\n")); err != nil {
			return err
		}
	}
	return nil
}
