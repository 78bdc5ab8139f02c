package durable

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Store is the durable copy in one data home.
type Store struct {
	// Home is the data home; segments live in Home/segments/<workstream>.
	Home string
	// FS is the file system segments are written through; tests replace it
	// to simulate a full disk.
	FS FS
}

// New returns the store of a data home on the real file system.
func New(home string) *Store { return &Store{Home: home, FS: OSFS{}} }

// FS is the file-system surface segment writing needs.
type FS interface {
	MkdirAll(path string, perm fs.FileMode) error
	CreateTemp(dir, pattern string) (File, error)
	Rename(oldpath, newpath string) error
	Remove(path string) error
	Stat(path string) (fs.FileInfo, error)
}

// File is a temp file being written.
type File interface {
	io.Writer
	Name() string
	Chmod(fs.FileMode) error
	Sync() error
	Close() error
}

// OSFS is the real file system.
type OSFS struct{}

func (OSFS) MkdirAll(p string, m fs.FileMode) error { return os.MkdirAll(p, m) }
func (OSFS) CreateTemp(d, p string) (File, error)   { return os.CreateTemp(d, p) }
func (OSFS) Rename(o, n string) error               { return os.Rename(o, n) }
func (OSFS) Remove(p string) error                  { return os.Remove(p) }
func (OSFS) Stat(p string) (fs.FileInfo, error)     { return os.Stat(p) }

// Root is the directory holding one directory per workstream.
func (s *Store) Root() string { return filepath.Join(s.Home, "segments") }

// Remove removes a file of the store given relative to the home (a segment
// a failed transaction created); best effort.
func (s *Store) Remove(rel string) {
	if rel != "" {
		s.FS.Remove(filepath.Join(s.Home, filepath.FromSlash(rel)))
	}
}

// WorkstreamDirs lists the workstream ids that have a segment directory.
func (s *Store) WorkstreamDirs() ([]string, error) {
	ents, err := os.ReadDir(s.Root())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("rebuild: read %s: %w", s.Root(), err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// WriteFile writes data to a temp file in dir and renames it to target
// (0600); with durable, the data is fsynced before the rename.
func (s *Store) WriteFile(dir, target string, data []byte, durable bool) error {
	f, err := s.FS.CreateTemp(dir, ".segment-*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	err = f.Chmod(0o600)
	if err == nil {
		_, err = f.Write(data)
	}
	if err == nil && durable {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = s.FS.Rename(tmp, target)
	}
	if err != nil {
		s.FS.Remove(tmp)
	}
	return err
}
