package sqlite

// SQL of the workstream state snapshots (state.go, state_restore.go).

const (
	sqlStateLinks = `SELECT harness, machine, native_session_id, is_current, source_cursor, delivery_cursor, created_at, updated_at
  FROM session_links WHERE workstream_id = ? ORDER BY harness, machine, native_session_id`
	// ?1 workstream, ?2 how many of the newest runs; plus the active run and
	// the newest run of each harness (which "harnesses" and "last_harness"
	// need), oldest first.
	sqlStateRuns = `SELECT id, harness, native_session_id, state, exit_code, started_at, ended_at,
  lease_expires_at, owner_host, owner_pid, owner_start, owner_machine, sync_after, sync_through, context_delivered
FROM runs WHERE workstream_id = ?1 AND (state = 'active'
  OR id IN (SELECT id FROM runs WHERE workstream_id = ?1 ORDER BY started_at DESC, id DESC LIMIT ?2)
  OR id IN (SELECT (SELECT r.id FROM runs r WHERE r.workstream_id = ?1 AND r.harness = h.harness ORDER BY r.started_at DESC, r.id DESC LIMIT 1)
            FROM (SELECT DISTINCT harness FROM runs WHERE workstream_id = ?1) h))
ORDER BY started_at, id`
	sqlRunWorkstream     = `SELECT workstream_id FROM runs WHERE id = ?`
	sqlAllWorkstreamIDs  = `SELECT id FROM workstreams ORDER BY wsk`
	sqlStateMarker       = `PRAGMA user_version`
	sqlSetStateMarker    = `PRAGMA user_version = 1`
	sqlRestoreWorkstream = `INSERT INTO workstreams (id, repo_fingerprint, worktree_fingerprint, name, cwd, created_at, selected_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
	sqlRestoreLink = `INSERT INTO session_links (workstream_id, harness, machine, native_session_id, is_current, source_cursor, delivery_cursor, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
	sqlRestoreRun = `INSERT INTO runs (id, workstream_id, harness, native_session_id, state, exit_code, started_at, ended_at,
  lease_expires_at, owner_host, owner_pid, owner_start, owner_machine, sync_after, sync_through, context_delivered)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	sqlNameTaken = `SELECT EXISTS (SELECT 1 FROM workstreams WHERE repo_fingerprint = ? AND worktree_fingerprint = ? AND name = ?)`
	// Appends without a cursor write no snapshot; their segment times say
	// when the workstream last changed.
	sqlRestoreUpdatedAt = `UPDATE workstreams SET updated_at = MAX(updated_at, COALESCE((SELECT MAX(created_at) FROM segments WHERE wsk = ?1), 0)) WHERE wsk = ?1`
)
