package launcher

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/ai-memory/ai-memory/ledger"
	"github.com/ai-memory/ai-memory/transcript"
)

// ImportStats summarises one session import.
type ImportStats struct {
	Harness         string   `json:"harness"`
	NativeSessionID string   `json:"native_session_id"`
	Added           int      `json:"added"`
	Skipped         int      `json:"skipped"`
	Losses          int      `json:"losses"`
	LossNotes       []string `json:"loss_notes,omitempty"`
	Bytes           int64    `json:"bytes"`
}

// Importer imports native sessions into one workstream, resuming each from
// the cursor stored with its link row. Every batch and its cursor commit in
// one ledger transaction, so a killed import resumes where it stopped and a
// replay adds nothing.
type Importer struct {
	DB           *ledger.DB
	WorkstreamID string
	RunID        string
	// Progress, when set, is called after each batch with bytes read so far.
	Progress func(sess transcript.Session, offset int64)
}

// Import reads sess from its saved cursor to the last complete record.
func (im *Importer) Import(ctx context.Context, src transcript.Source, sess transcript.Session) (ImportStats, error) {
	st := ImportStats{Harness: src.Harness(), NativeSessionID: sess.ID}
	from, err := im.cursor(ctx, src.Harness(), sess)
	if err != nil {
		return st, err
	}
	losses := map[string]bool{}
	start := from.Offset
	emit := func(b transcript.Batch) error {
		res, err := im.DB.Append(ctx, ledger.Batch{
			WorkstreamID: im.WorkstreamID,
			RunID:        im.RunID,
			Events:       toInputs(src.Harness(), sess.ID, b.Events),
			Cursor:       &ledger.CursorUpdate{Harness: src.Harness(), NativeSessionID: sess.ID, SourceCursor: b.Cursor.String()},
		})
		if err != nil {
			return err
		}
		st.Added += res.Added
		st.Skipped += res.Skipped
		for _, l := range b.Losses {
			losses[l.Reason] = true
		}
		st.Bytes = b.Cursor.Offset - start
		if im.Progress != nil {
			im.Progress(sess, b.Cursor.Offset)
		}
		return nil
	}
	if err := src.Read(ctx, sess, from, transcript.ReadOptions{}, emit); err != nil {
		return st, fmt.Errorf("import %s session %s: %w", src.Harness(), sess.ID, err)
	}
	for r := range losses {
		st.LossNotes = append(st.LossNotes, r)
	}
	sort.Strings(st.LossNotes)
	st.Losses = len(st.LossNotes)
	return st, nil
}

func (im *Importer) cursor(ctx context.Context, harnessName string, sess transcript.Session) (transcript.Cursor, error) {
	link, ok, err := im.DB.SessionLink(ctx, im.WorkstreamID, harnessName, sess.ID)
	if err != nil || !ok || link.SourceCursor == "" {
		return transcript.Cursor{}, err
	}
	c, err := transcript.ParseCursor(link.SourceCursor)
	if err != nil || c.Path != sess.Path {
		// An unreadable or foreign cursor restarts from 0; event ids dedupe.
		return transcript.Cursor{}, nil
	}
	return c, nil
}

func toInputs(harnessName, sessionID string, evs []transcript.Event) []ledger.EventInput {
	out := make([]ledger.EventInput, 0, len(evs))
	for _, e := range evs {
		if strings.TrimSpace(e.Content) == "" {
			continue
		}
		out = append(out, ledger.EventInput{
			Harness:         harnessName,
			NativeSessionID: sessionID,
			SourceRecordID:  e.RecordID,
			BlockIndex:      e.BlockIndex,
			Kind:            ledger.Kind(e.Kind),
			Role:            e.Role,
			OccurredAt:      e.OccurredAt,
			Metadata:        e.Metadata,
			Content:         e.Content,
		})
	}
	return out
}
