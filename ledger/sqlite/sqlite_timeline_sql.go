package sqlite

// SQL of the read queries behind the timeline (timeline.go): the web UI and
// `ai-memory log`. Kept apart from sqlite_sql.go so the writers' SQL and the
// readers' SQL change independently.

const (
	sqlRunsOldestFirst = `SELECT ` + runColumns + ` FROM runs WHERE workstream_id = ? ORDER BY started_at, id`
	// Segments are named segments/<ws>/<run>-<hash>.jsonl; ?1 and ?2 bound
	// the run's name prefix so the lookup is a range scan of the path index.
	sqlRunSegmentRange = `SELECT COALESCE(MIN(id), 0), COALESCE(MAX(id), 0) FROM segments WHERE path >= ?1 AND path < ?2`
	// The first event at or after a sequence: one probe of the binary search.
	sqlSegmentAtSequence = `SELECT sequence, segment_id FROM events WHERE wsk = ? AND sequence >= ? ORDER BY sequence LIMIT 1`
	sqlEventsAscending   = `SELECT ` + eventColumns + eventsFrom + `WHERE e.wsk = ? AND e.sequence > ? AND e.sequence <= ? ORDER BY e.sequence LIMIT ?`
	sqlFirstOfKindRole   = `SELECT ` + eventColumns + eventsFrom + `WHERE e.wsk = ? AND e.sequence >= ? AND e.sequence <= ? AND e.kind = ? AND e.role = ? ORDER BY e.sequence LIMIT 1`
	sqlAllWorkstreams    = `SELECT w.id, w.name, w.repo_fingerprint, w.worktree_fingerprint, w.cwd, w.created_at, w.selected_at, w.updated_at, w.event_count,
  COALESCE((SELECT r.harness FROM runs r WHERE r.workstream_id = w.id ORDER BY r.started_at DESC, r.id DESC LIMIT 1), '')
FROM workstreams w ORDER BY w.updated_at DESC, w.wsk DESC`
)
