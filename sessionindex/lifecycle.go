package sessionindex

import (
	"fmt"
	"strings"
)

// End marks the caller's own record ended. It is keyed by runtime and
// native id, never by latest_session, which a parallel session may have
// moved. An empty runtime matches the native id under any runtime if only
// one runtime has it. Ending an ended record changes nothing; an
// interrupted one is corrected to ended (its owner evidently was there).
func (s *Store) End(runtime, nativeID string) (Record, error) {
	if !isRealNativeID(nativeID) {
		return Record{}, fmt.Errorf("end: native id %q does not identify a session; pass --native-id, or end by --id", nativeID)
	}
	if strings.TrimSpace(runtime) == "" {
		return s.endWhere(func(ix *Index) (int, error) { return findNative(ix, nativeID) }, "native id "+nativeID)
	}
	rt, err := NormalizeRuntime(runtime)
	if err != nil {
		return Record{}, err
	}
	return s.endWhere(func(ix *Index) (int, error) { return findSession(ix, rt, nativeID), nil },
		fmt.Sprintf("runtime %s, native id %s", rt, nativeID))
}

// findNative finds a native id under any runtime; the same id under two
// runtimes is ambiguous.
func findNative(ix *Index, nativeID string) (int, error) {
	found, rt := -1, ""
	for _, r := range ix.Sessions {
		if r.NativeSessionID != nativeID || r.Runtime == rt {
			continue
		}
		if found >= 0 {
			return -1, fmt.Errorf("native id %s exists for runtimes %s and %s; pass --runtime", nativeID, rt, r.Runtime)
		}
		rt = r.Runtime
		found = findSession(ix, rt, nativeID)
	}
	return found, nil
}

// EndID marks the record with the given index id ended; it is for sessions
// whose native id is still pending.
func (s *Store) EndID(id string) (Record, error) {
	return s.endWhere(func(ix *Index) (int, error) { return ix.Find(id), nil }, "id "+id)
}

func (s *Store) endWhere(find func(*Index) (int, error), what string) (Record, error) {
	var out Record
	err := s.update(func(ix *Index) (bool, error) {
		i, err := find(ix)
		if err != nil {
			return false, err
		}
		if i < 0 {
			return false, notFound(what)
		}
		r := &ix.Sessions[i]
		changed := r.Status != StatusEnded
		if changed {
			t := s.now()
			r.Status, r.Ended = StatusEnded, &t
		}
		out = *r
		return changed, nil
	})
	return out, wrap("end session", err)
}

// Bind replaces the pending native id of record id with nativeID. A real
// id is never overwritten, and a native id already bound to another record
// of the same runtime is refused.
func (s *Store) Bind(id, nativeID string) (Record, error) {
	if !isRealNativeID(nativeID) {
		return Record{}, fmt.Errorf("bind-id: %q is not a native session id", nativeID)
	}
	if err := checkNativeID(nativeID); err != nil {
		return Record{}, err
	}
	var out Record
	err := s.update(func(ix *Index) (bool, error) {
		i := ix.Find(id)
		if i < 0 {
			return false, notFound("id " + id)
		}
		r := &ix.Sessions[i]
		out = *r
		if r.NativeSessionID == nativeID {
			return false, nil
		}
		if r.hasRealNativeID() {
			return false, fmt.Errorf("session %s already has native id %s; refusing to overwrite it", id, r.NativeSessionID)
		}
		if j := findSession(ix, r.Runtime, nativeID); j >= 0 {
			return false, fmt.Errorf("native id %s is already bound to session %s; end or interrupt one of them instead", nativeID, ix.Sessions[j].ID)
		}
		r.NativeSessionID = nativeID
		out = *r
		return true, nil
	})
	return out, wrap("bind native id", err)
}

// Interrupt marks record id interrupted, as a person (or an agent with
// reliable evidence) decided. An ended record stays ended.
func (s *Store) Interrupt(id string) (Record, error) {
	var out Record
	err := s.update(func(ix *Index) (bool, error) {
		i := ix.Find(id)
		if i < 0 {
			return false, notFound("id " + id)
		}
		r := &ix.Sessions[i]
		out = *r
		switch r.Status {
		case StatusInterrupted:
			return false, nil
		case StatusEnded:
			return false, fmt.Errorf("session %s already ended normally; nothing to interrupt", id)
		}
		markInterrupted(r, s.now())
		out = *r
		return true, nil
	})
	return out, wrap("interrupt session", err)
}

// MarkInterrupted marks the active record of (runtime, nativeID)
// interrupted; the launcher calls it for a run whose launcher died or whose
// lease expired. It reports whether a record changed; no matching active
// record is not an error.
func (s *Store) MarkInterrupted(runtime, nativeID string) (Record, bool, error) {
	rt, err := NormalizeRuntime(runtime)
	if err != nil || !isRealNativeID(nativeID) {
		return Record{}, false, err
	}
	var out Record
	var marked bool
	err = s.update(func(ix *Index) (bool, error) {
		out, marked = Record{}, false
		i := findSession(ix, rt, nativeID)
		if i < 0 || ix.Sessions[i].Status != StatusActive {
			return false, nil
		}
		markInterrupted(&ix.Sessions[i], s.now())
		out, marked = ix.Sessions[i], true
		return true, nil
	})
	return out, marked, wrap("mark session interrupted", err)
}

// notFoundError names the selector that matched nothing; errors.Is
// matches it against ErrNotFound.
type notFoundError struct{ what string }

func (e notFoundError) Error() string {
	return "no session with " + e.what + " in the index; see `ai-memory sessions list`"
}

func (e notFoundError) Is(target error) bool { return target == ErrNotFound }

func notFound(what string) error { return notFoundError{what} }

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", op, err)
}
