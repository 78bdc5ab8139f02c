package transcript

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonl"
	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// Discovery bounds: a store may hold years of sessions, and discovery runs
// before the agent starts, so it must stay cheap whatever the store size.
const (
	maxScanFiles   = 2000      // candidate files examined per List/CreatedSince
	maxFindEntries = 50000     // directory entries examined per Find
	headerLines    = 64        // lines read to find a session's id and cwd
	headerLineMax  = 128 << 10 // longer header lines are skipped
	createdSlack   = 2 * time.Second
)

// canonical resolves p to an absolute path without symlinks.
func canonical(p string) (string, bool) {
	if p == "" {
		return "", false
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", false
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", false
	}
	return real, true
}

// sameDir reports whether a recorded cwd is the checkout. It fails closed:
// when either path cannot be resolved the answer is no.
func sameDir(recorded, checkoutCanon string) bool {
	c, ok := canonical(recorded)
	return ok && checkoutCanon != "" && c == checkoutCanon
}

// scanHeader calls fn with each valid JSON record among the first
// headerLines lines of path (lines over maxLine bytes are skipped) until fn
// returns false. The file is opened read-only.
func scanHeader(path string, maxLine int, fn func(rec []byte) bool) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("open session header: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	var acc []byte
	for n := 0; n < headerLines; n++ {
		line, tooLong, err := jsonl.ReadBoundedLine(br, maxLine, acc[:0])
		acc = line[:0]
		if !tooLong && jsonx.Valid(line) && !fn(line) {
			return nil
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read session header: %w", err)
		}
	}
	return nil
}

// validID reports whether id can name a session file: a non-empty single
// path element of safe characters.
func validID(id string) bool {
	if id == "" || len(id) > 256 {
		return false
	}
	for _, r := range id {
		ok := r == '-' || r == '_' || r == '.' || (r >= '0' && r <= '9') ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !ok {
			return false
		}
	}
	return id != "." && id != ".."
}

// The symlink rule of every store, for discovery and find-by-id alike:
// directories inside a store may be symlinks and are followed (users move
// a project folder to another disk and link it back); a transcript file
// must be a regular file, never a symlink or a device, so that nothing
// planted in a store can make ai-memory read a file from outside it.

// isStoreDir reports whether entry e of dir is a directory or a symlink to one.
func isStoreDir(dir string, e fs.DirEntry) bool {
	if e.IsDir() {
		return true
	}
	if e.Type()&fs.ModeSymlink == 0 {
		return false
	}
	st, err := os.Stat(filepath.Join(dir, e.Name()))
	return err == nil && st.IsDir()
}

// statTranscript returns the facts of a transcript file without following
// a symlink at path itself, and an error for anything but a regular file.
func statTranscript(path string) (fs.FileInfo, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		what := "a " + st.Mode().Type().String() + " entry"
		switch {
		case st.IsDir():
			what = "a directory"
		case st.Mode()&fs.ModeSymlink != 0:
			what = "a symlink"
		}
		return nil, fmt.Errorf("%s is %s, not a regular file; ai-memory reads only regular transcript files", path, what)
	}
	return st, nil
}

// statSession fills the file facts of a session.
func statSession(s Session) (Session, bool) {
	st, err := statTranscript(s.Path)
	if err != nil {
		return s, false
	}
	s.ModTime, s.Size = st.ModTime(), st.Size()
	return s, true
}

// newestFirst orders sessions by modification time, newest first.
func newestFirst(ss []Session) {
	sort.SliceStable(ss, func(i, j int) bool {
		if !ss[i].ModTime.Equal(ss[j].ModTime) {
			return ss[i].ModTime.After(ss[j].ModTime)
		}
		return ss[i].Path > ss[j].Path
	})
}

// limitSessions keeps the first limit sessions (all when limit <= 0).
func limitSessions(ss []Session, limit int) []Session {
	if limit > 0 && len(ss) > limit {
		return ss[:limit]
	}
	return ss
}

// findResult turns a lookup error into the three-way answer: a missing
// store means Absent, any other error means Unknown.
func findResult(err error) (Existence, error) {
	if errors.Is(err, fs.ErrNotExist) {
		return Absent, nil
	}
	return Unknown, err
}

// jsonlFiles lists the regular *.jsonl files directly inside dir whose name
// passes keep, up to max.
func jsonlFiles(dir string, max int, keep func(name string) bool) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if len(out) >= max {
			break
		}
		name := e.Name()
		if e.Type().IsRegular() && strings.HasSuffix(name, ".jsonl") && keep(name) {
			out = append(out, filepath.Join(dir, name))
		}
	}
	return out, nil
}

// ErrUnreadable is matched by the error of a List or CreatedSince that
// skipped transcripts it could not read: they cannot be attributed to a
// checkout, and the sessions returned are the readable ones.
var ErrUnreadable = errors.New("unreadable transcripts")

// unreadable collects the transcripts a listing had to skip.
type unreadable struct {
	harness string
	n       int
	first   error
}

func (u *unreadable) add(harness string, err error) {
	if errors.Is(err, fs.ErrNotExist) {
		return // removed since it was listed: nothing to read
	}
	if u.n == 0 {
		u.harness, u.first = harness, err
	}
	u.n++
}

func (u *unreadable) err() error {
	if u.n == 0 {
		return nil
	}
	return unreadableError{*u}
}

type unreadableError struct{ u unreadable }

func (e unreadableError) Error() string {
	return fmt.Sprintf("%d %s transcript(s) could not be read and were skipped (first: %v); make them readable by this user and retry",
		e.u.n, e.u.harness, e.u.first)
}

func (e unreadableError) Is(target error) bool { return target == ErrUnreadable }

func (e unreadableError) Unwrap() error { return e.u.first }

// headerSessions lists the sessions under roots (one JSONL file per
// session, found recursively) modified at or after since whose header, read
// by header, names checkout as their cwd: the header decides, the folder
// names only narrow the scan. Unreadable roots are reported once as
// "list <harness> sessions"; missing ones are no error.
func headerSessions(harness string, roots []string, checkout string, since time.Time, header func(path string) (id, cwd string)) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed
	}
	var files []string
	var err error
	for _, dir := range roots {
		more, e := jsonlFiles(dir, maxScanFiles-len(files), func(string) bool { return true })
		if e != nil && !errors.Is(e, fs.ErrNotExist) && err == nil {
			err = fmt.Errorf("list %s sessions: %w", harness, e)
		}
		files = append(files, more...)
	}
	var out []Session
	for _, f := range files {
		s, ok := statSession(Session{Harness: harness, Path: f})
		if !ok || s.ModTime.Before(since) {
			continue
		}
		if s.ID, s.Cwd = header(f); s.ID != "" && sameDir(s.Cwd, canon) {
			out = append(out, s)
		}
	}
	newestFirst(out)
	return out, err
}
