package transcript

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ai-memory/ai-memory/transcript/internal/jsonx"
)

// kimiSource reads Kimi Code (`@moonshot-ai/kimi-code` 2.1.x):
// <root>/sessions/wd_<slug>_<sha256(cwd)[:12]>/session_<uuid>/ with
// state.json (its "cwd") and agents/main/wire.jsonl (the main agent's
// record stream, appended on resume), root = $KIMI_CODE_HOME else
// ~/.kimi-code. The bucket's hash suffix narrows the scan to the
// checkout; state.json's cwd decides.
type kimiSource struct{ fileStore }

// kimiHomeEnv names the store-override variable.
const kimiHomeEnv = "KIMI_CODE_HOME"

// KimiSource returns the Kimi Code store reader.
func KimiSource() Source { return kimiSource{} }

func (kimiSource) Harness() string { return "kimi" }

func (kimiSource) StoreEnv() []string { return []string{kimiHomeEnv} }

func (kimiSource) StoreRoot(env Env) string {
	if v := env.lookup(kimiHomeEnv); v != "" {
		return v
	}
	return filepath.Join(env.Home, ".kimi-code")
}

func (k kimiSource) sessionsDir(env Env) string { return filepath.Join(k.StoreRoot(env), "sessions") }

// kimiWire is the main agent's transcript inside a session directory.
func kimiWire(sessionDir string) string {
	return filepath.Join(sessionDir, "agents", "main", "wire.jsonl")
}

// KimiBucketSuffix is the end of Kimi's bucket name for cwd: "_" and the
// first 12 hex digits of SHA-256 of the path without a trailing separator.
func KimiBucketSuffix(cwd string) string {
	if len(cwd) > 1 {
		cwd = strings.TrimRight(cwd, `/\`)
	}
	sum := sha256.Sum256([]byte(cwd))
	return "_" + hex.EncodeToString(sum[:])[:12]
}

// WatchRoots is the sessions directory (a new bucket appears on the first
// session of a checkout).
func (k kimiSource) WatchRoots(env Env, checkout string) []string {
	return []string{k.sessionsDir(env)}
}

func (k kimiSource) List(env Env, checkout string, limit int) ([]Session, error) {
	ss, err := k.sessions(env, checkout, time.Time{})
	return limitSessions(ss, limit), err
}

func (k kimiSource) CreatedSince(env Env, checkout string, since time.Time) ([]Session, error) {
	return k.sessions(env, checkout, since.Add(-createdSlack))
}

func (k kimiSource) sessions(env Env, checkout string, since time.Time) ([]Session, error) {
	canon, ok := canonical(checkout)
	if !ok {
		return nil, nil // fail closed
	}
	suffixes := []string{KimiBucketSuffix(canon)}
	if abs, err := filepath.Abs(checkout); err == nil {
		suffixes = append(suffixes, KimiBucketSuffix(abs))
	}
	root := k.sessionsDir(env)
	buckets, err := os.ReadDir(root)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list kimi sessions: %w", err)
	}
	var out []Session
	for _, b := range buckets {
		if !kimiOwnBucket(b.Name(), suffixes) || !isStoreDir(root, b) {
			continue
		}
		out = append(out, k.bucket(filepath.Join(root, b.Name()), canon, since)...)
	}
	newestFirst(out)
	return out, nil
}

func kimiOwnBucket(name string, suffixes []string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}

// bucket lists the sessions of one bucket recorded in canon.
func (k kimiSource) bucket(dir, canon string, since time.Time) []Session {
	ents, _ := os.ReadDir(dir)
	var out []Session
	for i, e := range ents {
		if i >= maxScanFiles {
			break
		}
		if !validID(e.Name()) || !isStoreDir(dir, e) {
			continue
		}
		sdir := filepath.Join(dir, e.Name())
		s, ok := statSession(Session{Harness: "kimi", ID: e.Name(), Path: kimiWire(sdir)})
		if !ok || s.ModTime.Before(since) {
			continue
		}
		if s.Cwd = kimiCwd(sdir); sameDir(s.Cwd, canon) {
			out = append(out, s)
		}
	}
	return out
}

// kimiCwd reads "cwd" from the session's state.json.
func kimiCwd(sessionDir string) string {
	f, err := os.Open(filepath.Join(sessionDir, "state.json"))
	if err != nil {
		return ""
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, headerLineMax))
	if err != nil || !jsonx.Valid(data) {
		return ""
	}
	return str(jsonx.Get(data, "cwd"))
}

// Find probes every bucket for <id>/agents/main/wire.jsonl.
func (k kimiSource) Find(env Env, id string) (Session, Existence, error) {
	if !validID(id) {
		return Session{}, Absent, nil
	}
	root := k.sessionsDir(env)
	buckets, err := os.ReadDir(root)
	if err != nil {
		ex, err := findResult(err)
		return Session{}, ex, wrapFind("kimi", err)
	}
	for i, b := range buckets {
		if i >= maxFindEntries {
			return Session{}, Unknown, fmt.Errorf("find kimi session: more than %d buckets in %s", maxFindEntries, root)
		}
		sdir := filepath.Join(root, b.Name(), id)
		st, err := statTranscript(kimiWire(sdir))
		switch {
		case err == nil:
			s := Session{Harness: "kimi", ID: id, Path: kimiWire(sdir), ModTime: st.ModTime(), Size: st.Size(), Cwd: kimiCwd(sdir)}
			return s, Present, nil
		case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrInvalid):
			if b.IsDir() {
				return Session{}, Unknown, wrapFind("kimi", err)
			}
		}
	}
	return Session{}, Absent, nil
}

func (kimiSource) Read(ctx context.Context, s Session, from Cursor, opt ReadOptions, emit func(Batch) error) error {
	return readJSONL(ctx, s.Path, from, opt, kimiParser{}, emit)
}
