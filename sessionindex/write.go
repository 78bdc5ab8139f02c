package sessionindex

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// mutation changes the index in place and reports whether anything changed.
// It may run more than once (see [Store.update]), so it must derive all of
// its results from the index it is given.
type mutation func(ix *Index) (changed bool, err error)

// update applies fn to the current index under the sidecar lock and writes
// the result atomically. Because writers that ignore the lock may replace
// the file at any moment, it re-reads the file just before the rename and
// starts over when it changed, so their records are not lost.
func (s *Store) update(fn mutation) error {
	if s.Root == "" {
		return errors.New("session index: project root is empty")
	}
	path := Path(s.Root)
	if err := checkNotSymlink(path); err != nil {
		return err
	}
	if err := ensureDir(filepath.Dir(path)); err != nil {
		return err
	}
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	for attempt := 0; attempt < maxCommitAttempts; attempt++ {
		done, err := s.attempt(path, fn)
		if err != nil || done {
			return err
		}
	}
	return fmt.Errorf("session index %s kept changing while being written (a writer that ignores %s?); retry", path, filepath.Base(lockPath(s.Root)))
}

// attempt is one read-modify-write round; done is false when the file
// changed underneath and the round must be repeated.
func (s *Store) attempt(path string, fn mutation) (done bool, err error) {
	base, err := readState(path)
	if err != nil {
		return false, err
	}
	ix, perr := parseIndex(base.data)
	if perr != nil {
		if err := s.moveAside(path, perr); err != nil {
			return false, err
		}
		base, ix = fileState{}, Index{HistoryLimit: DefaultHistoryLimit}
	}
	changed, err := fn(&ix)
	if err != nil || !changed {
		return true, err
	}
	out, err := encodeFile(ix)
	if err != nil {
		return false, err
	}
	return s.commit(path, base, out)
}

// commit stages out in a temp file, then renames it over path only if path
// still holds base.
func (s *Store) commit(path string, base fileState, out []byte) (bool, error) {
	tmp, err := writeTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-", out, fileMode)
	if err != nil {
		return false, fmt.Errorf("write session index: %w", err)
	}
	defer os.Remove(tmp) // no-op after a successful rename
	if s.beforeCommit != nil {
		s.beforeCommit()
	}
	cur, err := readState(path)
	if err != nil {
		return false, err
	}
	if !cur.same(base) {
		return false, nil
	}
	if err := os.Rename(tmp, path); err != nil {
		return false, fmt.Errorf("replace session index: %w", err)
	}
	syncDir(filepath.Dir(path))
	return true, nil
}

// moveAside renames an unparseable index to <path>.corrupt-<UTC time> so
// that nothing in it is lost, and says so on the warning stream.
func (s *Store) moveAside(path string, cause error) error {
	dst := path + ".corrupt-" + s.now().Format("20060102T150405Z")
	for i := 2; ; i++ {
		if _, err := os.Lstat(dst); errors.Is(err, os.ErrNotExist) {
			break
		}
		dst = fmt.Sprintf("%s.corrupt-%s-%d", path, s.now().Format("20060102T150405Z"), i)
	}
	if err := os.Rename(path, dst); err != nil {
		return fmt.Errorf("move corrupt session index aside: %w", err)
	}
	fmt.Fprintf(s.warn(), "ai-memory: session index %s was corrupt (%v); moved it to %s and started a fresh index\n", path, cause, dst)
	return nil
}

func checkNotSymlink(path string) error {
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return fmt.Errorf("session index %s is a symlink; refusing to replace it (make it a regular file)", path)
	}
	return nil
}

// writeTemp creates a file next to its final place, writes data, fsyncs
// and closes it, and returns its name.
func writeTemp(dir, pattern string, data []byte, mode os.FileMode) (string, error) {
	f, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	name := f.Name()
	err = f.Chmod(mode)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// writeFileAtomic replaces path with data via a synced temp file.
func writeFileAtomic(path string, data []byte, mode os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, err := writeTemp(dir, "."+filepath.Base(path)+".tmp-", data, mode)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename durable. Some platforms cannot fsync a directory
// and the data itself is already synced, so failures are ignored.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// gitignoreText keeps the index out of `git status` and commits by
// default (as track-agent-sessions projects do with /.agent-sessions/):
// it changes with every session and would make every checkpoint dirty.
// It is written only when we create the directory; delete it to commit
// the index, and it is never recreated.
const gitignoreText = "# Written by ai-memory when it created this directory: the session index\n" +
	"# changes with every agent session. Delete this file to commit the index.\n*\n"

// ensureDir creates the index directory, with its .gitignore when the
// directory is new.
func ensureDir(dir string) error {
	if _, err := os.Lstat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, dirMode); err != nil {
		return fmt.Errorf("create %s: %w", dir, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(gitignoreText), fileMode); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Join(dir, ".gitignore"), err)
	}
	return nil
}
