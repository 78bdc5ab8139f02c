package transcript

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonl"
	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// recordParser turns one valid JSON record (a line without its newline) into
// events and losses. A parser may keep state between the lines of one read.
type recordParser interface {
	parse(rec []byte, off int64, out *sink)
}

// mutableHeadParser is a recordParser of files whose first line the writer
// rewrites in place at the same length (a title slot): mutableHead returns
// that line's length, left out of the cursor's prefix hash so that the
// rewrite is not taken for a rewritten file, or 0.
type mutableHeadParser interface {
	mutableHead(f *os.File) int64
}

// sink collects what the parser of one line produced.
type sink struct {
	events []Event
	losses []Loss
	bytes  int
}

func (s *sink) event(e Event) {
	s.events = append(s.events, e)
	s.bytes += len(e.Content)
}

func (s *sink) loss(off int64, reason string) {
	s.losses = append(s.losses, Loss{Offset: off, Reason: reason})
}

// flushSourceBytes bounds how far the cursor can lag behind the bytes read
// when a long stretch of a file produces no events (bookkeeping records).
const flushSourceBytes = 8 << 20

// readJSONL imports the JSONL file at path from the cursor from. Parsing runs
// on its own goroutine; emit runs on the caller's goroutine, so the caller
// can write batch N while batch N+1 is being parsed.
func readJSONL(ctx context.Context, path string, from Cursor, opt ReadOptions,
	p recordParser, emit func(Batch) error) error {
	fc := fileCursorFor(from, path)
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open transcript: %w", err)
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	batches := make(chan Batch, 1)
	done := make(chan error, 1)
	go func() {
		defer close(batches)
		done <- produce(ctx, f, path, fc, opt.withDefaults(), p, batches)
	}()
	var emitErr error
	for b := range batches {
		if emitErr == nil {
			if emitErr = emit(b); emitErr != nil {
				cancel()
			}
		}
	}
	if err := <-done; err != nil && emitErr == nil {
		return err
	}
	return emitErr
}

// producer is the parsing side of readJSONL.
type producer struct {
	ctx     context.Context
	path    string
	opt     ReadOptions
	p       recordParser
	out     chan<- Batch
	lr      *jsonl.LineReader
	cur     sink
	flushed int64 // offset covered by the last batch sent
}

func produce(ctx context.Context, f *os.File, path string, from fileCursor, opt ReadOptions,
	p recordParser, out chan<- Batch) error {
	h := jsonl.NewPrefixHash()
	if m, ok := p.(mutableHeadParser); ok {
		h = jsonl.SkipHash(h, m.mutableHead(f))
	}
	start, rewound, err := resume(f, path, from, h)
	if err != nil {
		return err
	}
	pr := &producer{ctx: ctx, path: path, opt: opt, p: p, out: out,
		lr: jsonl.NewLineReader(f, h, start), flushed: start}
	if rewound {
		pr.cur.loss(0, "transcript rewritten or truncated since the last import; re-read from the start")
	}
	if err := pr.run(); err != nil {
		return err
	}
	if len(pr.cur.events)+len(pr.cur.losses) > 0 || pr.lr.Offset() != from.Offset || from.Path != path {
		return pr.flush()
	}
	return nil
}

func (pr *producer) run() error {
	for {
		if err := pr.ctx.Err(); err != nil {
			return err
		}
		line, start, oversize, err := pr.lr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		pr.handle(line, start, oversize)
		if pr.full() {
			if err := pr.flush(); err != nil {
				return err
			}
		}
	}
}

func (pr *producer) handle(line []byte, start int64, oversize bool) {
	switch {
	case oversize:
		pr.cur.loss(start, fmt.Sprintf("record over 1 MiB at byte %d skipped", start))
	case len(bytes.TrimSpace(line)) == 0:
	case !jsonx.Valid(line):
		pr.cur.loss(start, fmt.Sprintf("malformed JSONL record at byte %d", start))
	default:
		pr.p.parse(line, start, &pr.cur)
	}
}

func (pr *producer) full() bool {
	return len(pr.cur.events)+len(pr.cur.losses) >= pr.opt.BatchEvents ||
		pr.cur.bytes >= pr.opt.BatchBytes ||
		pr.lr.Offset()-pr.flushed >= flushSourceBytes
}

func (pr *producer) flush() error {
	b := Batch{
		Events: pr.cur.events,
		Losses: pr.cur.losses,
		Cursor: fileCursor{Path: pr.path, Offset: pr.lr.Offset(), PrefixSHA256: hex.EncodeToString(pr.lr.Sum())}.encode(),
	}
	pr.cur = sink{}
	pr.flushed = pr.lr.Offset()
	select {
	case pr.out <- b:
		return nil
	case <-pr.ctx.Done():
		return pr.ctx.Err()
	}
}

// resume positions f and h after the cursor's prefix when the cursor still
// describes this file: same path, not past the end, same prefix hash.
// Otherwise it rewinds to 0; rewound reports a detected rewrite.
func resume(f *os.File, path string, from fileCursor, h hash.Hash) (start int64, rewound bool, err error) {
	if from.Path != path || from.Offset <= 0 {
		return 0, false, nil
	}
	st, err := f.Stat()
	if err != nil {
		return 0, false, fmt.Errorf("stat transcript: %w", err)
	}
	if from.Offset > st.Size() {
		return 0, true, nil
	}
	if _, err := io.CopyN(h, f, from.Offset); err != nil {
		return 0, false, fmt.Errorf("hash transcript prefix: %w", err)
	}
	// A cursor without a hash cannot be verified: replaying is always safe.
	if from.PrefixSHA256 != "" && hex.EncodeToString(h.Sum(nil)) == from.PrefixSHA256 {
		return from.Offset, false, nil
	}
	h.Reset()
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return 0, false, fmt.Errorf("rewind transcript: %w", err)
	}
	return 0, true, nil
}
