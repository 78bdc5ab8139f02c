package transcript

import "os"

// fileStore is what every store of one file per session shares: the
// session's data is the file at Session.Path, progress is the cursor's byte
// offset, and a session has settled when two observations see the same
// file at the same size. Only the agent writes its file, so nothing appears
// after it exited.
type fileStore struct{}

func (fileStore) Progress(s Session, c Cursor) (done, total int64) {
	return fileCursorFor(c, s.Path).Offset, s.Size
}

func (fileStore) Refresh(s Session) (Session, bool) {
	if s.Path == "" {
		return s, false
	}
	fi, err := os.Stat(s.Path)
	if err != nil || !fi.Mode().IsRegular() {
		return s, false
	}
	s.Size, s.ModTime = fi.Size(), fi.ModTime()
	return s, true
}

func (fileStore) Settled(before, after Session) bool {
	return before.Path == after.Path && before.Size == after.Size && before.ModTime.Equal(after.ModTime)
}

func (fileStore) WrittenAfterExit() bool { return false }
